#!/usr/bin/env node
// Renders the promo clip (public/media/promo.webm, 30 s, 960×540) in Debian Chromium from the
// site's own art and copy: the poster (public/media/poster.svg, scripts/make-poster.mjs: the rainy
// skyline, the moon, neon, two gangsters and a tommy gun) under falling rain and a flickering
// neon sign, the landing's taglines (machines/taglines) and
// the offer (§2 Home, §9), set in the site's display face (@fontsource/playfair-display). Drawn
// frame by frame on a canvas and recorded with MediaRecorder; nothing is downloaded. The clip has
// no dates in it, so it never contradicts the dated copy once the dates pass. Run it again
// (`node scripts/make-promo-video.mjs`) to change the clip; the first frame is the poster.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const out = resolve(ROOT, 'public/media/promo.webm');
const require = createRequire(import.meta.url);
const poster = readFileSync(resolve(ROOT, 'public/media/poster.svg'), 'utf8');
const font = readFileSync(
  require.resolve('@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2'),
).toString('base64');

// The taglines of the landing page, in its order (machines/taglines/taglines.types.ts).
const taglines = readFileSync(resolve(ROOT, 'machines/taglines/taglines.types.ts'), 'utf8');
const TAGLINES = [...taglines.matchAll(/^\s+'([^']+)',$/gm)].map((m) => m[1]);
if (TAGLINES.length !== 5) throw new Error('expected the five taglines of the landing page');

/** Scenes: [start s, end s, kicker, headline, detail]. */
const SCENES = [
  [0, 5, '', 'Solana Mafia Wars', 'Build Your Criminal Empire'],
  [5, 10, 'Gangsters', TAGLINES[0], 'Each Gangster holds two Weapons, one per hand.'],
  [10, 15, 'Properties', TAGLINES[1], 'Levels grant Influence.'],
  [15, 20, 'Fights', TAGLINES[2], 'Half of the loot goes to the Fund.'],
  [
    20,
    25,
    'Early Bird Entry',
    '2 Gangsters',
    '+4 starter weapons · an extra pack · 999 invitation codes',
  ],
  [25, 30, 'Invite 2 friends', TAGLINES[4], 'Get Access on the site'],
];
const DURATION_S = 30;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage();
  const base64 = await page.evaluate(
    async ({ poster, font, scenes, duration }) => {
      const W = 960;
      const H = 540;
      const face = new FontFace('Promo Display', `url(data:font/woff2;base64,${font})`);
      document.fonts.add(await face.load());
      const art = new Image();
      art.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(poster)}`;
      await art.decode();
      const canvas = document.createElement('canvas');
      canvas.width = W;
      canvas.height = H;
      document.body.appendChild(canvas);
      const ctx = canvas.getContext('2d');
      // Rain: fixed drops (a seeded generator), so every run draws the same clip.
      let seed = 7;
      const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
      const drops = Array.from({ length: 140 }, () => ({
        x: random() * W,
        y: random() * H,
        speed: 380 + random() * 260,
        length: 10 + random() * 14,
      }));
      const ease = (x) => 0.5 - Math.cos(Math.min(1, Math.max(0, x)) * Math.PI) / 2;

      const drawFrame = (t) => {
        // The poster, slowly pushed in (a Ken Burns move over each scene).
        const scene = scenes.find(([from, to]) => t >= from && t < to) ?? scenes.at(-1);
        const [from, to, kicker, headline, detail] = scene;
        const local = (t - from) / (to - from);
        const zoom = 1.04 + 0.06 * local + (scene === scenes[0] ? 0.04 * (1 - local) : 0);
        const dw = W * zoom;
        const dh = H * zoom;
        ctx.drawImage(art, (W - dw) / 2 - 30 * local, (H - dh) / 2, dw, dh);
        // Night over the art, darker at the bottom for the words.
        const shade = ctx.createLinearGradient(0, 0, 0, H);
        shade.addColorStop(0, 'rgba(10,8,7,0.25)');
        shade.addColorStop(1, 'rgba(10,8,7,0.8)');
        ctx.fillStyle = shade;
        ctx.fillRect(0, 0, W, H);
        // Rain.
        ctx.strokeStyle = 'rgba(220,210,190,0.28)';
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (const d of drops) {
          const y = (d.y + d.speed * t) % (H + 40);
          const x = (d.x - 0.18 * d.speed * t) % W;
          const xx = x < 0 ? x + W : x;
          ctx.moveTo(xx, y - 20);
          ctx.lineTo(xx - d.length * 0.18, y - 20 + d.length);
        }
        ctx.stroke();
        // The neon sign: flickers now and then.
        const flicker = Math.sin(t * 37) > 0.96 || (t % 7 > 3.1 && t % 7 < 3.2) ? 0.35 : 1;
        ctx.save();
        ctx.globalAlpha = flicker;
        ctx.shadowColor = '#e0425a';
        ctx.shadowBlur = 18;
        ctx.strokeStyle = '#ff6b7f';
        ctx.lineWidth = 3;
        ctx.strokeRect(W - 250, 40, 200, 56);
        ctx.fillStyle = '#ffd6dc';
        ctx.font = '700 26px "Promo Display", Georgia, serif';
        ctx.textAlign = 'center';
        ctx.fillText('SMW', W - 150, 78);
        ctx.restore();
        // The words of the scene: in, hold, out.
        const fade = Math.min(ease(local * 4), ease((1 - local) * 5));
        const last = scene === scenes.at(-1);
        ctx.save();
        ctx.globalAlpha = last ? ease(local * 4) : fade;
        ctx.textAlign = 'center';
        ctx.shadowColor = 'rgba(0,0,0,0.7)';
        ctx.shadowBlur = 12;
        if (kicker) {
          ctx.fillStyle = '#d4a64a';
          ctx.font = '700 22px "Promo Display", Georgia, serif';
          ctx.fillText(kicker.toUpperCase(), W / 2, H - 190);
        }
        ctx.fillStyle = '#f3ece2';
        const size = headline.length > 34 ? 38 : 56;
        ctx.font = `700 ${size}px "Promo Display", Georgia, serif`;
        ctx.fillText(headline, W / 2, H - 130 + 8 * (1 - ease(local * 3)));
        ctx.fillStyle = '#e8dcc8';
        ctx.font = '400 24px Georgia, serif';
        ctx.fillText(detail, W / 2, H - 80);
        ctx.restore();
        // A thin progress line of gold along the bottom.
        ctx.fillStyle = '#d4a64a';
        ctx.fillRect(0, H - 4, (W * t) / duration, 4);
      };

      drawFrame(0);
      // Frames are pushed by hand after each draw (requestFrame): a headless page's canvas is
      // never composited, so an automatic capture would keep the first frame only.
      const stream = canvas.captureStream(0);
      const track = stream.getVideoTracks()[0];
      const recorder = new MediaRecorder(stream, {
        mimeType: 'video/webm;codecs=vp8',
        videoBitsPerSecond: 200_000,
      });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((r) => (recorder.onstop = r));
      recorder.start();
      const started = performance.now();
      await new Promise((finish) => {
        const tick = () => {
          const t = (performance.now() - started) / 1000;
          drawFrame(Math.min(t, duration));
          track.requestFrame();
          if (t < duration) setTimeout(tick, 1000 / 24);
          else finish();
        };
        tick();
      });
      recorder.stop();
      await done;
      const buffer = await new Blob(chunks, { type: 'video/webm' }).arrayBuffer();
      let binary = '';
      const bytes = new Uint8Array(buffer);
      for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
      return btoa(binary);
    },
    { poster, font, scenes: SCENES, duration: DURATION_S },
  );
  // Chromium's recorder writes the duration and cues itself: the clip seeks like any file.
  writeFileSync(out, Buffer.from(base64, 'base64'));
  console.log(`wrote ${out} (${Math.round((base64.length * 0.75) / 1024)} KB, ${DURATION_S} s)`);
} finally {
  await browser.close();
}
