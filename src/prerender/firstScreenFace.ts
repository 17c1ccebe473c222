import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Window } from 'happy-dom';
import subsetFont from 'subset-font';
import { TRAINING_OPEN_TEXT } from '../../machines/launch/launch.types';

/**
 * The brand's display face from a first visit's first paint: the few glyphs of the display text
 * the landing's first screen shows (the header's mark, the hero's title, tagline and countdown),
 * cut from Playfair Display 700 into a face of a few KB that the pre-rendered `/` carries inline
 * in its head (no request, nothing pending while the page lays out). The first screen
 * names it until this browser has the whole face (src/platform/webFonts.ts); the rest of the
 * page's display text stays in the system serif until then, so no word mixes two faces.
 *
 * The glyphs come from the page itself at build time: the text of every element of the first
 * screen that the page's CSS sets in the display face (`var(--font-display)`), plus what a
 * countdown there draws once the app runs.
 */

/** The first screen: the parts of `/` that name the inline face on a first visit. */
const FIRST_SCREEN_SELECTORS = ['.site-header', '.hero'] as const;

/** The inline face's family name. */
const FIRST_SCREEN_FAMILY = 'Smw Display First';

/**
 * What a countdown in the first screen (a `timer`) draws after hydration and not in the
 * pre-rendered markup: its two-digit figures and, once the training starts, its notice. A page
 * built after the start shows the notice itself and no timer.
 */
const FIGURES = '0123456789';
const TIMER_TEXT = `${FIGURES}${TRAINING_OPEN_TEXT}`;

/**
 * The OpenType features the site's display text uses, where the face has them: the browser's
 * defaults and the lining and tabular figures the styles ask for.
 */
const FEATURES = [
  'kern',
  'liga',
  'clig',
  'rlig',
  'calt',
  'ccmp',
  'locl',
  'mark',
  'mkmk',
  'lnum',
  'tnum',
];

const DISPLAY_DECLARATION = /(?:^|;)\s*font(?:-family)?\s*:[^;]*var\(\s*--font-display\s*\)/;
/** Pseudo-elements and states a static page never matches: their element is matched instead. */
const UNMATCHABLE =
  /::?(?:before|after|marker|placeholder|selection|first-line|first-letter)\b|:(?:hover|focus-visible|focus-within|focus|active|visited)\b/g;

/** The selectors of the style rules in `css` that set text in the display face. */
export function displaySelectorsOf(css: string): string[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const selectors: string[] = [];
  for (const [, selector = '', body = ''] of plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (!DISPLAY_DECLARATION.test(body)) continue;
    const cleaned = selector.trim().replace(UNMATCHABLE, '').trim();
    if (cleaned && !cleaned.startsWith('@')) selectors.push(cleaned);
  }
  return [...new Set(selectors)];
}

/** A selector list split at its top-level commas (`:is(a, b)` stays whole). */
function splitList(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i];
    if (c === '(' || c === '[') depth += 1;
    else if (c === ')' || c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/**
 * The display text of the first screen of the pre-rendered `markup` styled by `css`: the text of
 * each element inside FIRST_SCREEN_SELECTORS that a display rule matches (its descendants
 * included, which inherit the face), plus what a countdown there draws later.
 */
export function firstScreenDisplayText(markup: string, css: string): string {
  const window = new Window();
  try {
    const { document } = window;
    document.body.innerHTML = markup;
    const region = FIRST_SCREEN_SELECTORS.join(', ');
    const texts = new Set<string>();
    for (const selector of displaySelectorsOf(css).flatMap(splitList)) {
      let found: Element[];
      try {
        found = [...document.querySelectorAll(selector)] as unknown as Element[];
      } catch {
        // A selector happy-dom cannot parse is skipped: a glyph it alone would have brought is
        // then missing, which tests/e2e/first-screen-face.spec.ts reports (a system font drawn).
        continue;
      }
      for (const element of found)
        if (element.closest(region)) texts.add(element.textContent ?? '');
    }
    const timer = [...document.querySelectorAll('[role="timer"]')].some((element) =>
      element.closest(region),
    );
    const text = [...texts, ...(timer ? [TIMER_TEXT] : [])].join(' ');
    // A figure the page shows may be another once the app runs (a price, a count): all ten.
    return /\d/.test(text) ? `${text} ${FIGURES}` : text;
  } finally {
    void window.happyDOM.close();
  }
}

/** The characters of `text` once each, in code point order: spaces kept (their advance counts). */
export function glyphSetOf(text: string): string {
  const points = new Set<number>();
  for (const char of text.replace(/\s+/g, ' ')) points.add(char.codePointAt(0)!);
  return String.fromCodePoint(...[...points].sort((a, b) => a - b));
}

/** The code points an sfnt (TrueType or OpenType) font maps to a glyph: its cmap. */
export function cmapOf(font: Uint8Array): Set<number> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  let cmap = -1;
  for (let i = 0; i < view.getUint16(4); i += 1) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...font.subarray(record, record + 4)) === 'cmap')
      cmap = view.getUint32(record + 8);
  }
  if (cmap < 0) throw new Error('the font has no cmap table');
  const points = new Set<number>();
  for (let t = 0; t < view.getUint16(cmap + 2); t += 1) {
    const at = cmap + view.getUint32(cmap + 4 + 8 * t + 4);
    const format = view.getUint16(at);
    if (format === 4) {
      const segments = view.getUint16(at + 6) / 2;
      const ends = at + 14;
      const starts = ends + 2 * segments + 2;
      const deltas = starts + 2 * segments;
      const ranges = deltas + 2 * segments;
      for (let s = 0; s < segments; s += 1) {
        const end = view.getUint16(ends + 2 * s);
        const delta = view.getInt16(deltas + 2 * s);
        const range = view.getUint16(ranges + 2 * s);
        const start = view.getUint16(starts + 2 * s);
        for (let c = start; c <= end && c !== 0xffff; c += 1) {
          const indexed =
            range === 0 ? c : view.getUint16(ranges + 2 * s + range + 2 * (c - start));
          const glyph = range === 0 ? (c + delta) & 0xffff : indexed && (indexed + delta) & 0xffff;
          if (glyph !== 0) points.add(c);
        }
      }
    } else if (format === 12) {
      for (let g = 0; g < view.getUint32(at + 12); g += 1) {
        const group = at + 16 + 12 * g;
        const first = view.getUint32(group);
        for (let c = first; c <= view.getUint32(group + 4); c += 1)
          if (view.getUint32(group + 8) + (c - first) !== 0) points.add(c);
      }
    }
  }
  return points;
}

/** The source face on disk: Playfair Display 700 (latin) from @fontsource. */
export function displaySource(root: string): Uint8Array {
  const require = createRequire(`${root}/`);
  return readFileSync(
    require.resolve('@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2'),
  );
}

export type FirstScreenFace = {
  /** The face, WOFF2. */
  woff2: Buffer;
  /** The characters it holds. */
  glyphs: string;
  /** Characters of the first screen's display text the source face has no glyph for. */
  missing: string;
};

/**
 * The first screen's face cut from `source` to the characters of `text`. Throws when the cut
 * lost a character the source has (the page would mix two faces in a word).
 */
export async function makeFirstScreenFace(
  source: Uint8Array,
  text: string,
): Promise<FirstScreenFace> {
  const wanted = glyphSetOf(text);
  const sourceCmap = cmapOf(
    await subsetFont(source, undefined, { targetFormat: 'truetype', keepAllGlyphs: true }),
  );
  const cut = await subsetFont(source, wanted, {
    targetFormat: 'truetype',
    keepFeatures: FEATURES,
  });
  const held = cmapOf(cut);
  const chars = [...wanted];
  const lost = chars.filter(
    (c) => sourceCmap.has(c.codePointAt(0)!) && !held.has(c.codePointAt(0)!),
  );
  if (lost.length > 0) throw new Error(`the first screen's face lost ${JSON.stringify(lost)}`);
  const woff2 = await subsetFont(cut, undefined, { targetFormat: 'woff2', keepAllGlyphs: true });
  return {
    woff2,
    glyphs: chars.filter((c) => held.has(c.codePointAt(0)!)).join(''),
    missing: chars.filter((c) => !sourceCmap.has(c.codePointAt(0)!)).join(''),
  };
}

/**
 * The head's script that gives the document the face from its bytes (the FontFace API with the
 * font's data: decoded at once, so the first layout already has it, where a `data:` URL in the
 * CSS is still loading at the first frame), on a first visit only: once this browser has the
 * whole face (`data-fonts="ready"`, set by the head's first script) it is not needed. A face
 * the browser refuses leaves the system serif, as before.
 */
export function firstScreenFaceScript(woff2: Uint8Array): string {
  const data = Buffer.from(woff2).toString('base64');
  return (
    `(function(){if(document.documentElement.getAttribute('data-fonts')==='ready')return;` +
    `try{var s=atob('${data}'),b=new Uint8Array(s.length);` +
    `for(var i=0;i<s.length;i++)b[i]=s.charCodeAt(i);` +
    `document.fonts.add(new FontFace(${JSON.stringify(FIRST_SCREEN_FAMILY)},b,` +
    `{weight:'700',style:'normal',display:'optional'}))}catch(e){}})();`
  );
}

/**
 * The first screen naming the face until this browser has the whole face (`data-fonts="ready"`,
 * src/styles/tokens.css); any character it lacks falls back to the system serif.
 */
export function firstScreenFaceCss(): string {
  const region = FIRST_SCREEN_SELECTORS.join(',');
  return (
    `:root:not([data-fonts=ready]) :is(${region}){` +
    `--font-display:"${FIRST_SCREEN_FAMILY}",var(--font-display-fallback)}`
  );
}
