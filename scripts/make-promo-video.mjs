#!/usr/bin/env node
// Renders the trailer (public/media/promo.webm, 30 s, 960×540, no sound track; the player starts
// muted) in Debian Chromium from the site's own art: the key art's city
// (public/media/key-art-city.svg, scripts/make-key-art.mjs) and icons of the game-icons.net set
// (@iconify-json/game-icons, CC BY 3.0, credited on the site). Five scenes, cut one to the next:
//   1. the city: the skyline under the rain, pushed in, the neon flickering;
//   2. the gangsters: three men in fedoras step out of the dark, rim-lit one by one;
//   3. the weapons: a revolver, a pistol, a tommy gun, a shotgun and a rifle under a moving light;
//   4. the fight: two gangsters face off, muzzle flashes light the street, the frame shakes;
//   5. the payoff: the loot piles up in gold and the gang stands together.
// One line of the landing's taglines (machines/taglines) under each scene, in the site's display
// face (@fontsource/playfair-display); no title (the page around the player has it) and no dates
// (the clip never contradicts the dated copy). Drawn frame by frame on a canvas and recorded with
// MediaRecorder (VP9, a bitrate and keyframe interval that keep the night's gradients free of
// blotches); nothing is downloaded. Run it again to change the clip:
// `node scripts/make-promo-video.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { iconPaths } from './gameIconPaths.mjs';
import { chromium } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const out = resolve(ROOT, 'public/media/promo.webm');
const require = createRequire(import.meta.url);
const city = readFileSync(resolve(ROOT, 'public/media/key-art-city.svg'), 'utf8');
const font = readFileSync(
  require.resolve('@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2'),
).toString('base64');
const ICONS = Object.fromEntries(
  [
    'spy',
    'revolver',
    'pistol-gun',
    'thompson-m1928',
    'sawed-off-shotgun',
    'winchester-rifle',
    'coins-pile',
    'money-stack',
    'bullet-impacts',
  ].map((id) => [id, iconPaths(id)]),
);

// The taglines of the landing page, in its order (machines/taglines/taglines.types.ts).
const taglines = readFileSync(resolve(ROOT, 'machines/taglines/taglines.types.ts'), 'utf8');
const TAGLINES = [...taglines.matchAll(/^\s+'([^']+)',$/gm)].map((m) => m[1]);
if (TAGLINES.length !== 5) throw new Error('expected the five taglines of the landing page');

/** Scenes: [start s, end s, name, the line under it]. */
const SCENES = [
  [0, 6, 'city', 'A city that never sleeps. A Fund that never stops.'],
  [6, 12, 'gangsters', TAGLINES[0]],
  [12, 18, 'weapons', 'Two weapons each, one per hand.'],
  [18, 24, 'fight', TAGLINES[2]],
  [24, 30, 'payoff', TAGLINES[3]],
];
const DURATION_S = 30;
const BITRATE = 1_000_000;

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage();
  const result = await page.evaluate(
    async ({ city, font, icons, scenes, duration, bitrate }) => {
      const W = 960;
      const H = 540;
      const face = new FontFace('Promo Display', `url(data:font/woff2;base64,${font})`);
      document.fonts.add(await face.load());
      const art = new Image();
      art.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(city)}`;
      await art.decode();
      const canvas = document.createElement('canvas');
      canvas.width = W;
      canvas.height = H;
      document.body.appendChild(canvas);
      const ctx = canvas.getContext('2d');
      const path = Object.fromEntries(Object.entries(icons).map(([k, d]) => [k, new Path2D(d)]));
      // Rain and sparks from a seeded generator: every run draws the same clip.
      let seed = 7;
      const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
      const drops = Array.from({ length: 160 }, () => ({
        x: random() * W,
        y: random() * H,
        speed: 420 + random() * 260,
        length: 12 + random() * 16,
      }));
      const clamp = (x) => Math.min(1, Math.max(0, x));
      const ease = (x) => 0.5 - Math.cos(clamp(x) * Math.PI) / 2;

      /** The city, scaled about its centre, moved by (dx, dy), darkened by `shade`. */
      const drawCity = (zoom, dx, dy, shade) => {
        const scale = (H / 900) * zoom * 1.02;
        const dw = 1600 * scale;
        const dh = 900 * scale;
        ctx.drawImage(art, (W - dw) / 2 + dx, H - dh + dy, dw, dh);
        if (shade > 0) {
          ctx.fillStyle = `rgba(6,5,9,${shade})`;
          ctx.fillRect(0, 0, W, H);
        }
      };
      const drawRain = (t, alpha) => {
        ctx.strokeStyle = `rgba(216,226,242,${0.3 * alpha})`;
        ctx.lineWidth = 1.2;
        ctx.beginPath();
        for (const d of drops) {
          const y = (d.y + d.speed * t) % (H + 40);
          const x = (((d.x - 0.2 * d.speed * t) % W) + W) % W;
          ctx.moveTo(x, y - 20);
          ctx.lineTo(x - d.length * 0.2, y - 20 + d.length);
        }
        ctx.stroke();
      };
      /** An icon of the set at (x, y), `size` px, black with a lit rim (and a halo). */
      const icon = (name, x, y, size, rim, { flip = false, alpha = 1, rotate = 0 } = {}) => {
        ctx.save();
        ctx.globalAlpha = alpha;
        ctx.translate(x, y);
        ctx.rotate(rotate);
        ctx.scale(((flip ? -1 : 1) * size) / 512, size / 512);
        ctx.translate(-256, -256);
        ctx.lineJoin = 'round';
        ctx.strokeStyle = rim;
        ctx.globalAlpha = alpha * 0.18;
        ctx.lineWidth = 40;
        ctx.stroke(path[name]);
        ctx.globalAlpha = alpha;
        ctx.fillStyle = rim;
        ctx.lineWidth = 24;
        ctx.stroke(path[name]);
        ctx.fill(path[name]);
        ctx.fillStyle = '#040305';
        ctx.strokeStyle = '#040305';
        ctx.lineWidth = 14;
        ctx.stroke(path[name]);
        ctx.fill(path[name]);
        ctx.restore();
      };
      /** A soft pool of coloured light (radial gradient). */
      const light = (x, y, r, colour, alpha) => {
        const g = ctx.createRadialGradient(x, y, 0, x, y, r);
        g.addColorStop(0, colour.replace('A', String(alpha)));
        g.addColorStop(1, colour.replace('A', '0'));
        ctx.fillStyle = g;
        ctx.fillRect(x - r, y - r, r * 2, r * 2);
      };
      const flash = (x, y, size, alpha) => {
        ctx.save();
        ctx.globalAlpha = alpha;
        ctx.translate(x, y);
        ctx.fillStyle = '#fff3c4';
        ctx.beginPath();
        for (let i = 0; i < 14; i += 1) {
          const a = (i / 14) * Math.PI * 2;
          const r = i % 2 ? size * 0.35 : size;
          ctx.lineTo(Math.cos(a) * r * 1.6, Math.sin(a) * r);
        }
        ctx.fill();
        ctx.restore();
        light(x, y, size * 6, 'rgba(255,200,90,A)', 0.5 * alpha);
      };

      const SCENE = {
        city(t, local) {
          drawCity(1.15 + 0.12 * local, -60 + 80 * local, 20 * (1 - local), 0);
          const flicker = Math.sin(t * 41) > 0.93 ? 0.4 : 1;
          light(W * 0.64, H * 0.62, 120, 'rgba(79,214,255,A)', 0.12 * flicker);
        },
        gangsters(t, local) {
          drawCity(1.35, 0, 40, 0.62);
          light(W / 2, H * 1.05, 460, 'rgba(212,166,74,A)', 0.22);
          const step = (i) => ease((local - 0.1 - i * 0.2) * 3);
          icon('spy', 250, H - 140 + 60 * (1 - step(0)), 300, '#ff4d7a', { alpha: step(0) });
          icon('spy', 710, H - 140 + 60 * (1 - step(1)), 300, '#4fd6ff', { alpha: step(1) });
          icon('spy', W / 2, H - 170 + 80 * (1 - step(2)), 380, '#d4a64a', { alpha: step(2) });
        },
        weapons(t, local) {
          ctx.fillStyle = '#0b0908';
          ctx.fillRect(0, 0, W, H);
          const sweep = -200 + (W + 400) * local;
          light(sweep, H * 0.42, 320, 'rgba(212,166,74,A)', 0.28);
          const guns = [
            ['revolver', 150, 190],
            ['pistol-gun', 330, 180],
            ['thompson-m1928', 530, 230],
            ['sawed-off-shotgun', 700, 200],
            ['winchester-rifle', 850, 210],
          ];
          guns.forEach(([name, x, size], i) => {
            const k = ease((local - i * 0.13) * 4);
            icon(name, x, H * 0.42 - 30 * (1 - k), size, '#d4a64a', { alpha: k });
          });
        },
        fight(t, local) {
          const shots = [0.12, 0.2, 0.36, 0.44, 0.6, 0.68, 0.82];
          const hit = shots.find((s) => local >= s && local < s + 0.035);
          const shake = hit === undefined ? 0 : 6 * Math.sin(t * 90);
          ctx.save();
          ctx.translate(shake, shake * 0.5);
          drawCity(1.6, 120 - 120 * local, 90, 0.55);
          ctx.fillStyle = 'rgba(120,18,30,0.22)';
          ctx.fillRect(-10, -10, W + 20, H + 20);
          icon('spy', 190 + 20 * local, H - 150, 330, '#ff4d7a');
          icon('spy', W - 190 - 20 * local, H - 150, 330, '#4fd6ff', { flip: true });
          // Their guns raised at each other: a tommy gun on the left, a revolver on the right.
          icon('thompson-m1928', 330 + 20 * local, H - 215, 190, '#ff4d7a', {
            rotate: Math.PI / 4,
          });
          icon('revolver', W - 330 - 20 * local, H - 225, 130, '#4fd6ff', { flip: true });
          if (hit !== undefined) {
            const left = shots.indexOf(hit) % 2 === 0;
            flash(left ? 432 + 20 * local : W - 402 - 20 * local, H - 236, 30, 1);
            const mark = { alpha: 0.85 };
            icon(
              'bullet-impacts',
              left ? W - 140 : 140,
              110 + 50 * shots.indexOf(hit),
              80,
              '#ffd58a',
              mark,
            );
          }
          ctx.restore();
        },
        payoff(t, local) {
          drawCity(1.2, 0, 0, 0.5);
          light(W / 2, H * 0.7, 420, 'rgba(240,207,134,A)', 0.3 + 0.15 * ease(local * 2));
          const rise = ease(local * 2.2);
          icon('coins-pile', 180, H - 90 + 120 * (1 - rise), 200, '#f0cf86');
          icon('money-stack', W - 180, H - 90 + 120 * (1 - rise), 200, '#f0cf86');
          const stand = ease((local - 0.25) * 3);
          icon('spy', 350, H - 150 + 40 * (1 - stand), 260, '#ff4d7a', { alpha: stand });
          icon('spy', 610, H - 150 + 40 * (1 - stand), 260, '#4fd6ff', { alpha: stand });
          icon('spy', W / 2, H - 180 + 40 * (1 - stand), 330, '#d4a64a', { alpha: stand });
        },
      };

      const drawFrame = (t) => {
        const scene = scenes.find(([from, to]) => t >= from && t < to) ?? scenes.at(-1);
        const [from, to, name, line] = scene;
        const local = clamp((t - from) / (to - from));
        ctx.save();
        SCENE[name](t, local);
        ctx.restore();
        drawRain(t, name === 'weapons' ? 0.4 : 1);
        // The line of the scene: in, hold, out; a dark band under it for the words.
        const band = ctx.createLinearGradient(0, H - 150, 0, H);
        band.addColorStop(0, 'rgba(6,5,9,0)');
        band.addColorStop(1, 'rgba(6,5,9,0.85)');
        ctx.fillStyle = band;
        ctx.fillRect(0, H - 150, W, 150);
        const fade = Math.min(ease((local - 0.12) * 5), ease((1 - local) * 6));
        ctx.save();
        ctx.globalAlpha = fade;
        ctx.textAlign = 'center';
        ctx.shadowColor = 'rgba(0,0,0,0.8)';
        ctx.shadowBlur = 10;
        ctx.fillStyle = '#f3ece2';
        ctx.font = '700 34px "Promo Display", Georgia, serif';
        ctx.fillText(line, W / 2, H - 42);
        ctx.restore();
        // A cut: one dark frame between scenes, a short fade from and to black at the ends.
        const edge = Math.min(t, duration - t, Math.abs(t - from), Math.abs(to - t));
        if (edge < 0.25) {
          ctx.fillStyle = `rgba(0,0,0,${1 - edge / 0.25})`;
          ctx.fillRect(0, 0, W, H);
        }
      };

      drawFrame(0.26);
      // Frames are pushed by hand after each draw (requestFrame): a headless page's canvas is
      // never composited, so an automatic capture would keep the first frame only.
      const stream = canvas.captureStream(0);
      const track = stream.getVideoTracks()[0];
      const mimeType = MediaRecorder.isTypeSupported('video/webm;codecs=vp9')
        ? 'video/webm;codecs=vp9'
        : 'video/webm;codecs=vp8';
      const recorder = new MediaRecorder(stream, {
        mimeType,
        videoBitsPerSecond: bitrate,
        videoKeyFrameIntervalDuration: 3000,
      });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((r) => (recorder.onstop = r));
      recorder.start();
      const started = performance.now();
      let frames = 0;
      await new Promise((finish) => {
        const tick = () => {
          const t = (performance.now() - started) / 1000;
          drawFrame(Math.min(t, duration));
          track.requestFrame();
          frames += 1;
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
      return { base64: btoa(binary), mimeType, frames };
    },
    {
      city,
      font,
      icons: ICONS,
      scenes: SCENES,
      duration: DURATION_S,
      bitrate: BITRATE,
    },
  );
  // Chromium's recorder writes the duration and cues itself: the clip seeks like any file.
  const bytes = Buffer.from(result.base64, 'base64');
  writeFileSync(out, bytes);
  console.log(
    `wrote ${out} (${Math.round(bytes.length / 1024)} KB, ${DURATION_S} s, ${result.mimeType}, ` +
      `${result.frames} frames drawn)`,
  );
} finally {
  await browser.close();
}
