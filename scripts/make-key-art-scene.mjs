#!/usr/bin/env node
// Renders the key art scene's poster frames from its own shader (src/views/home/keyArt/
// scene.frag) in Debian Chromium's WebGL, so the first paint is a frame of the scene the page
// later runs live: public/media/key-art-scene.webp (wide, for screens from 720 px) and
// public/media/key-art-scene-narrow.webp (a phone's middle of the same frame). Both are drawn at
// the scene's first moment without its rain (the page's own rain falls on the poster). The
// lobby's street (public/media/lobby-street.webp) is the same city without the gang: the
// player's own gang stands on it (src/views/home/Gang.tsx).
// Run after changing the shader: `node scripts/make-key-art-scene.mjs` (`--look DIR` also writes
// PNGs of the live frame at a phone's and a desktop's size, rain included, to look at).
import { writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { drawSceneFrame } from './sceneFrame.mjs';

const root = resolve(import.meta.dirname, '..');
const shader = readFileSync(resolve(root, 'src/views/home/keyArt/scene.frag'), 'utf8');
const lookAt = process.argv.includes('--look')
  ? process.argv[process.argv.indexOf('--look') + 1]
  : null;

/** The frames to write: [file, width, height, time, rain, quality, gang]. */
const POSTERS = [
  ['public/media/key-art-scene.webp', 2400, 900, 0, 0, 0.72],
  ['public/media/key-art-scene-narrow.webp', 900, 900, 0, 0, 0.72],
  ['public/media/lobby-street.webp', 1200, 360, 0, 0, 0.72, 0],
];
const LOOKS = [
  ['phone.png', 390, 779, 4, 1],
  ['desktop.png', 1440, 835, 4, 1],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  await page.setContent('<body></body>');
  await page.evaluate(`window.drawSceneFrame = ${drawSceneFrame}`);
  const frames = lookAt ? LOOKS : POSTERS;
  for (const [file, width, height, time, rain, quality, gang] of frames) {
    const { url, ms } = await page.evaluate(
      ([source, w, h, t, r, q, png, g]) => {
        const { canvas, ms } = window.drawSceneFrame({
          source,
          width: w,
          height: h,
          time: t,
          rain: r,
          gang: g,
        });
        return { url: canvas.toDataURL(png ? 'image/png' : 'image/webp', q), ms };
      },
      [shader, width, height, time, rain, quality ?? 0.9, Boolean(lookAt), gang ?? 1],
    );
    const bytes = Buffer.from(url.split(',')[1], 'base64');
    const out = lookAt ? resolve(lookAt, file) : resolve(root, file);
    if (lookAt) mkdirSync(lookAt, { recursive: true });
    writeFileSync(out, bytes);
    console.log(`${file}: ${width}×${height}, ${bytes.length} B, drawn in ${ms.toFixed(0)} ms`);
  }
} finally {
  await browser.close();
}
