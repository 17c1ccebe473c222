#!/usr/bin/env node
// Prints the metric overrides of the site's fallback faces (src/styles/fonts.css): for each brand
// face (Manrope 400 and 700, Playfair Display 700, the files the site serves) and the local face
// standing in while it loads (Arial's metrics, which Liberation Sans shares; Times New Roman's,
// which Liberation Serif shares), measured in Debian Chromium on a canvas:
// - size-adjust: the brand face's width of the landing's own words over the local face's;
// - ascent-override / descent-override: the brand face's ascent and descent (fractions of the
//   em), divided by size-adjust (the browser scales the overrides by it).
// With them the page laid out in the local face takes the room the brand face will take, so the
// swap when it arrives moves nothing. Run after changing a face: `node scripts/measure-font-fallbacks.mjs`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const b64 = (file) => readFileSync(file).toString('base64');
const body = b64(resolve(ROOT, 'src/assets/fonts/smw-body.woff2'));
const display = b64(resolve(ROOT, 'src/assets/fonts/smw-display.woff2'));

/** The landing's words (its title, tagline, taglines, buttons and offer), as the sample. */
const SAMPLE =
  'Solana Mafia Wars Build Your Criminal Empire Recruit Gangsters. Arm them. Take the city. ' +
  'Own Properties that pay $GNG every hour. Get Access Read Docs Early Bird Ticket 0.22 SOL ' +
  'Choose your way in Invite 2 friends 0123456789 Days Hours Minutes Seconds';

const PAIRS = [
  ['Smw Body Fallback', 400, 'Smw Body', 'Liberation Sans'],
  ['Smw Body Fallback', 700, 'Smw Body', 'Liberation Sans'],
  ['Smw Display Fallback', 700, 'Smw Display', 'Liberation Serif'],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  const rows = await page.evaluate(
    async ({ body, display, sample, pairs }) => {
      for (const [family, data, weight] of [
        ['Smw Body', body, '400 700'],
        ['Smw Display', display, '700'],
      ]) {
        const face = new FontFace(family, `url(data:font/woff2;base64,${data})`, { weight });
        document.fonts.add(await face.load());
      }
      const ctx = document.createElement('canvas').getContext('2d');
      const measure = (weight, family) => {
        ctx.font = `${weight} 100px "${family}"`;
        const m = ctx.measureText(sample);
        return {
          width: m.width,
          ascent: m.fontBoundingBoxAscent / 100,
          descent: m.fontBoundingBoxDescent / 100,
        };
      };
      return pairs.map(([fallback, weight, brand, local]) => {
        const b = measure(weight, brand);
        const l = measure(weight, local);
        const size = b.width / l.width;
        return {
          fallback,
          weight,
          local,
          size,
          ascent: b.ascent / size,
          descent: b.descent / size,
        };
      });
    },
    { body, display, sample: SAMPLE, pairs: PAIRS },
  );
  const pct = (x) => `${(x * 100).toFixed(2)}%`;
  for (const row of rows) {
    console.log(
      `${row.fallback} ${row.weight} (${row.local}): size-adjust: ${pct(row.size)}; ` +
        `ascent-override: ${pct(row.ascent)}; descent-override: ${pct(row.descent)}; ` +
        'line-gap-override: 0%;',
    );
  }
} finally {
  await browser.close();
}
