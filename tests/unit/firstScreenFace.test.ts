import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import subsetFont from 'subset-font';
import { describe, expect, it } from 'vitest';
import { TRAINING_OPEN_TEXT } from '../../machines/launch/launch.types';
import {
  cmapOf,
  displaySelectorsOf,
  displaySource,
  firstScreenDisplayText,
  firstScreenFaceCss,
  firstScreenFaceScript,
  glyphSetOf,
  makeFirstScreenFace,
} from '../../src/prerender/firstScreenFace';

/**
 * The landing's first-screen face (issue 55): the glyph set read from the page's markup and CSS,
 * and the face cut from Playfair Display holding every one of them.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const css = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');
const SITE_CSS = [
  'src/styles/base.css',
  'src/views/home/site-header.css',
  'src/views/home/landing.css',
  'src/views/home/countdown.css',
  'src/views/home/taglines.css',
]
  .map(css)
  .join('\n');

const HERO = (countdown: string) => `
  <header class="site-header"><a class="site-logo"><span>SMW</span></a>
    <nav><a href="/docs/intro">Docs</a></nav></header>
  <main>
    <section class="hero">
      <p class="hero-starts">Training starts soon</p>
      <h1 class="hero-title">Solana Mafia Wars</h1>
      <p class="hero-tagline">Build Your Criminal Empire</p>
      <p class="taglines"><span>Recruit Gangsters. Arm them. Take the city.</span></p>
      ${countdown}
      <button class="btn btn-primary">Get Access</button>
    </section>
    <section class="offer"><h2 class="offer-title">Choose your way in</h2></section>
  </main>`;
const TIMER = `<div class="countdown-cards" role="timer"><div class="flip-card">
  <span class="flip-card-face"><span class="flip-card-value">--</span></span>
  <span class="flip-card-label">Days</span></div></div>`;
const OPEN = `<div class="countdown"><p class="countdown-open">${TRAINING_OPEN_TEXT}</p></div>`;

const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!);
const truetypeOf = (woff2: Uint8Array) =>
  subsetFont(woff2, undefined, { targetFormat: 'truetype', keepAllGlyphs: true });

/** The feature tags of an sfnt font's GSUB table (its FeatureList). */
function gsubFeaturesOf(font: Uint8Array): string[] {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  for (let i = 0; i < view.getUint16(4); i += 1) {
    const record = 12 + 16 * i;
    if (String.fromCharCode(...font.subarray(record, record + 4)) !== 'GSUB') continue;
    const gsub = view.getUint32(record + 8);
    const list = gsub + view.getUint16(gsub + 6);
    return Array.from({ length: view.getUint16(list) }, (_, f) =>
      String.fromCharCode(...font.subarray(list + 2 + 6 * f, list + 6 + 6 * f)),
    );
  }
  return [];
}

describe('the first screen display text', () => {
  it('finds the rules that set the display face in the site CSS, not a custom property naming it', () => {
    const selectors = displaySelectorsOf(SITE_CSS);
    expect(selectors).toEqual(
      expect.arrayContaining([
        'h1,\nh2,\nh3,\nh4',
        '.hero-tagline',
        '.site-logo',
        '.flip-card-value',
        '.countdown-open',
      ]),
    );
    expect(selectors).not.toContain('.taglines');
    expect(
      displaySelectorsOf(
        '@media (min-width:600px){.a:hover{font:700 1rem var(--font-display)}}' +
          ':root{--x:var(--font-display)}.b::before{font-family:var(--font-display)}' +
          '.c{font-family:var(--font-body)}',
      ),
    ).toEqual(['.a', '.b']);
  });

  it('takes the display text of the header and the hero only, and the countdown when one ticks', () => {
    const open = firstScreenDisplayText(HERO(OPEN), SITE_CSS);
    for (const part of [
      'SMW',
      'Solana Mafia Wars',
      'Build Your Criminal Empire',
      TRAINING_OPEN_TEXT,
    ])
      expect(open).toContain(part);
    // Below the fold, or in the body face: not in the face.
    for (const part of ['Choose your way in', 'Recruit', 'Get Access', 'Training starts', 'Docs'])
      expect(open).not.toContain(part);
    expect(open).not.toMatch(/\d/);
    const counting = firstScreenDisplayText(HERO(TIMER), SITE_CSS);
    expect(counting).toContain('--');
    expect(counting).toContain('0123456789');
    expect(counting).toContain(TRAINING_OPEN_TEXT);
    expect(counting).not.toContain('Days');
    // A figure in the first screen's display text brings all ten: it may change once the app runs.
    const priced = firstScreenDisplayText(
      HERO(OPEN).replace('Solana Mafia Wars', 'Solana Mafia Wars 0.5 SOL'),
      SITE_CSS,
    );
    expect(priced).toContain('0123456789');
  });

  it('keeps each character once, in order, spaces as one space', () => {
    expect(glyphSetOf('Wars  Mafia\nWars')).toBe(' MWafirs');
  });
});

describe('the first screen face', () => {
  const source = displaySource(ROOT);

  it('holds a glyph for every character of the first screen display text, in a few KB, byte for byte the same each build', async () => {
    const text = firstScreenDisplayText(HERO(TIMER), SITE_CSS);
    const face = await makeFirstScreenFace(source, text);
    // The face as the page carries it, read back through its cmap.
    const held = cmapOf(await truetypeOf(face.woff2));
    const wanted = codePoints(glyphSetOf(text));
    expect(wanted.filter((c) => !held.has(c))).toEqual([]);
    expect(face.glyphs).toBe(glyphSetOf(text));
    expect(face.missing).toBe('');
    expect(face.woff2.length).toBeLessThan(7_000);
    // Nothing beyond what was asked: the characters of the rest of the page are not in it.
    expect(held.has('Q'.codePointAt(0)!)).toBe(false);
    // The ligatures ("fi" in Mafia) and the lining figures the styles ask for stay (Playfair's
    // default figures are old-style); the whole face has no tabular ones.
    expect(gsubFeaturesOf(await truetypeOf(face.woff2))).toEqual(
      expect.arrayContaining(['liga', 'lnum']),
    );
    const again = await makeFirstScreenFace(source, text);
    expect(Buffer.compare(again.woff2, face.woff2)).toBe(0);
  });

  it('names what Playfair has no glyph for, which the system serif draws', async () => {
    const face = await makeFirstScreenFace(source, 'Mafia ★');
    expect(face.missing).toBe('★');
    expect(face.glyphs).toBe(' Mafi');
    const whole = cmapOf(
      await subsetFont(source, undefined, { targetFormat: 'truetype', keepAllGlyphs: true }),
    );
    expect(codePoints('AZaz09·').every((c) => whole.has(c))).toBe(true);
    expect(whole.has('★'.codePointAt(0)!)).toBe(false);
  });

  it('goes into the head as a script holding the face bytes and a rule for the first screen only', async () => {
    const face = await makeFirstScreenFace(source, 'Solana Mafia Wars');
    const script = firstScreenFaceScript(face.woff2);
    expect(script).not.toContain('</');
    const data = /atob\('([A-Za-z0-9+/=]+)'\)/.exec(script)?.[1];
    expect(Buffer.compare(Buffer.from(data ?? '', 'base64'), face.woff2)).toBe(0);
    expect(script).toContain("getAttribute('data-fonts')==='ready')return");
    expect(script).toContain('"Smw Display First"');
    expect(firstScreenFaceCss()).toBe(
      ':root:not([data-fonts=ready]) :is(.site-header,.hero){--font-display:"Smw Display First",var(--font-display-fallback)}',
    );
  });
});
