/** subset-font (harfbuzz's subsetter): the options the build uses. */
declare module 'subset-font' {
  type Options = {
    targetFormat?: 'woff2' | 'woff' | 'truetype' | 'sfnt';
    keepFeatures?: readonly string[];
    keepAllGlyphs?: boolean;
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
  };
  export default function subsetFont(
    font: Uint8Array,
    text: string | undefined,
    options?: Options,
  ): Promise<Buffer>;
}
