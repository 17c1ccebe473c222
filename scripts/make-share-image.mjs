#!/usr/bin/env node
// Renders the link-preview image (public/share.png, 1200×630, the Open Graph and Twitter card
// image of every page) in Debian Chromium from the site's own art: the night skyline under the
// moon of the promo poster, a fedora silhouette, and the display font from
// @fontsource/playfair-display. Nothing is downloaded; run it again to change the image.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, 'public/share.png');
const font = readFileSync(
  resolve(
    root,
    'node_modules/@fontsource/playfair-display/files/playfair-display-latin-800-normal.woff2',
  ),
).toString('base64');

// Window lights scattered over the towers, fixed so the image is the same on every run.
const towers = [
  [0, 390, 90],
  [80, 330, 110],
  [180, 420, 80],
  [250, 280, 100],
  [340, 370, 90],
  [420, 310, 120],
  [530, 400, 70],
  [590, 250, 90],
  [670, 350, 110],
  [770, 300, 90],
  [850, 380, 110],
  [950, 320, 100],
  [1040, 410, 70],
  [1100, 340, 100],
];
const lights = towers
  .flatMap(([x, top, w], i) =>
    [0, 1, 2, 3].map((k) => {
      const lx = x + 12 + ((i * 37 + k * 23) % Math.max(1, w - 30));
      const ly = top + 20 + ((i * 53 + k * 41) % 160);
      return `<rect x="${lx}" y="${ly}" width="9" height="12" fill="#d4a64a" opacity="${0.35 + ((i + k) % 3) * 0.2}"/>`;
    }),
  )
  .join('');
const skyline = towers
  .map(([x, top, w]) => `<rect x="${x}" y="${top}" width="${w}" height="${630 - top}"/>`)
  .join('');

const html = `<!doctype html><html><head><style>
@font-face { font-family: 'Smw Display'; src: url(data:font/woff2;base64,${font}) format('woff2'); font-weight: 800; }
html, body { margin: 0; width: 1200px; height: 630px; overflow: hidden; background: #0d0b0a; }
.card { position: relative; width: 1200px; height: 630px; }
svg { position: absolute; inset: 0; }
.text { position: absolute; left: 72px; top: 92px; width: 640px; color: #f3ece2; font-family: 'Smw Display', serif; }
.kicker { font: 700 22px/1 system-ui, sans-serif; letter-spacing: 0.32em; color: #d4a64a; text-transform: uppercase; }
h1 { margin: 22px 0 0; font-weight: 800; font-size: 92px; line-height: 0.98; letter-spacing: 0.01em; }
p { margin: 26px 0 0; font: 500 30px/1.3 system-ui, sans-serif; color: #e8dcc8; }
.badge { display: inline-block; margin-top: 30px; padding: 12px 22px; border: 2px solid #d4a64a; border-radius: 999px; font: 700 24px/1 system-ui, sans-serif; color: #f6dfa6; }
</style></head><body><div class="card">
<svg viewBox="0 0 1200 630" width="1200" height="630" aria-hidden="true">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#120d0a"/><stop offset="0.6" stop-color="#3a2616"/><stop offset="1" stop-color="#0d0b0a"/>
    </linearGradient>
    <radialGradient id="moon" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#f6dfa6"/><stop offset="0.7" stop-color="#d4a64a"/><stop offset="1" stop-color="#d4a64a" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="fade" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#0d0b0a" stop-opacity="0.92"/><stop offset="0.62" stop-color="#0d0b0a" stop-opacity="0.35"/><stop offset="1" stop-color="#0d0b0a" stop-opacity="0"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#sky)"/>
  <circle cx="955" cy="170" r="120" fill="url(#moon)" opacity="0.9"/>
  <g fill="#0b0908">${skyline}</g>
  <g>${lights}</g>
  <g transform="translate(990 372)" fill="#0b0908" stroke="#d4a64a" stroke-width="3" stroke-linejoin="round">
    <path d="M-78 258 L-70 96 C-66 70 -48 58 -22 50 L0 84 L22 50 C48 58 66 70 70 96 L78 258 Z"/>
    <path d="M-22 50 L0 120 L22 50" fill="none"/>
    <path d="M-26 -4 C-26 28 -14 46 0 46 C14 46 26 28 26 -4 Z"/>
    <path d="M-32 -14 C-32 -44 -18 -58 0 -58 C18 -58 32 -44 32 -14 Z"/>
    <path d="M-64 -10 C-40 -20 40 -20 64 -10 C40 0 -40 0 -64 -10 Z"/>
    <path d="M-31 -22 H31" stroke-width="6"/>
    <path d="M70 150 L150 118 L156 132 L76 166 Z"/>
  </g>
  <rect width="1200" height="630" fill="url(#fade)"/>
  <rect x="0" y="622" width="1200" height="8" fill="#d4a64a"/>
</svg>
<div class="text">
  <div class="kicker">Strategy game on Solana</div>
  <h1>Solana Mafia Wars</h1>
  <p>Build your criminal empire. Recruit Gangsters, own Properties, raid rival Gangs.</p>
  <div class="badge">Training opens December 20</div>
</div>
</div></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: out, type: 'png' });
  console.log(`share image: ${out}`);
} finally {
  await browser.close();
}
