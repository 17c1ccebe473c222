#!/usr/bin/env node
// Writes src/assets/fonts/smw-body.woff2: the site's body face, Manrope (variable weight axis,
// SIL Open Font License 1.1) from @fontsource-variable/manrope, cut down to the characters the
// site writes (ASCII, typographic dashes, quotes, bullets, arrows and a few signs) and to the
// weights it uses (400 to 700), so the pre-rendered pages can preload it (about 16 KB) without
// slowing their first paint; any other character falls back to the system face. The unicode-range in
// src/styles/fonts.css lists the same characters. Run after changing the list:
// `node scripts/make-body-font.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const source =
  require.resolve('@fontsource-variable/manrope/files/manrope-latin-wght-normal.woff2');
const version = JSON.parse(
  readFileSync(require.resolve('@fontsource-variable/manrope/package.json'), 'utf8'),
).version;

/** Inclusive code point ranges kept (keep in step with the unicode-range in fonts.css). */
export const RANGES = [
  [0x20, 0x7e],
  [0xa7, 0xa7],
  [0xa9, 0xa9],
  [0xb0, 0xb0],
  [0xb7, 0xb7],
  [0xd7, 0xd7],
  [0x2013, 0x2014],
  [0x2018, 0x201d],
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x2190, 0x2193],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2212, 0x2212],
];

let text = '';
for (const [from, to] of RANGES)
  for (let c = from; c <= to; c += 1) text += String.fromCodePoint(c);

const input = readFileSync(source);
const output = await subsetFont(input, text, {
  targetFormat: 'woff2',
  variationAxes: { wght: { min: 400, max: 700 } },
});
const out = resolve(import.meta.dirname, '../src/assets/fonts/smw-body.woff2');
writeFileSync(out, output);
console.log(
  `body font: Manrope ${version}, ${input.length} → ${output.length} bytes, written to ${out}`,
);
