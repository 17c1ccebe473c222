/** Modules generated at build time from docs-content/ by build/docsPlugin.ts. */
declare module 'virtual:docs-index' {
  export type DocMeta = {
    id: string;
    title: string;
    readMinutes: number;
    order: number;
    section: 'guide' | 'legal';
  };
  /** Every docs page, sorted by `order`. */
  export const DOCS: DocMeta[];
  /** One dynamic import per page: its compiled HTML. */
  export const LOADERS: Record<string, () => Promise<{ default: string }>>;
}
