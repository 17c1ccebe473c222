#!/usr/bin/env node
// Renders the trailer (public/media/promo.webm, 30 s, 960×540, VP9 with an Opus sound track; the
// player starts muted) in Debian Chromium from the site's own art: the key art scene's city
// (src/views/home/keyArt/scene.frag, drawn here without its gang, which the clip brings on
// itself) and icons of the game-icons.net set
// (@iconify-json/game-icons, CC BY 3.0, credited on the site). Five scenes, cut one to the next:
//   1. the city: the skyline under the rain, pushed in, the neon flickering;
//   2. the gangsters: three men in fedoras step out of the dark, rim-lit one by one;
//   3. the weapons: a revolver, a pistol, a tommy gun, a shotgun and a rifle under a moving light;
//   4. the fight: two gangsters face off, muzzle flashes light the street, the frame shakes;
//   5. the payoff: the loot piles up in gold and the gang stands together.
// One line of the landing's taglines (machines/taglines) over each scene, at the top of the frame
// where the player's controls never cover it, in the site's display face
// (@fontsource/playfair-display); no title (the page around the player has it) and no dates (the
// clip never contradicts the dated copy). The sound is the clip's own, synthesised with the Web
// Audio API from a seed (scoreOf below): a score in A minor (a bass ostinato, a pad, a kick and
// hi-hats that build scene by scene, a major chord for the payoff) and the scenes' effects (rain,
// the neon's buzz, footsteps, the guns cocked, seven shots, coins). Drawn frame by frame on a
// canvas and recorded with MediaRecorder (VP9, a bitrate and keyframe interval that keep the
// night's gradients free of blotches; Opus for the sound); nothing is downloaded. Run it again to
// change the clip:
// `node scripts/make-promo-video.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { iconPaths } from './gameIconPaths.mjs';
import { drawSceneFrame } from './sceneFrame.mjs';
import { chromium } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const out = resolve(ROOT, 'public/media/promo.webm');
const require = createRequire(import.meta.url);
const city = readFileSync(resolve(ROOT, 'src/views/home/keyArt/scene.frag'), 'utf8');
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
/** Black after the last fade (the recorder's first frame comes a moment after its start). */
const TAIL_S = 0.4;
const BITRATE = 1_000_000;
const AUDIO_BITRATE = 128_000;

/**
 * The trailer's sound, run in the page: the score and the effects of each scene, timed to what the
 * frames draw (the gangsters' steps, each weapon's entry, the fight's seven shots), mixed by an
 * OfflineAudioContext into one stereo buffer. Noise comes from a seeded generator, so the samples
 * are the same every run.
 */
async function scoreOf(scenes, duration) {
  const RATE = 48_000;
  const ctx = new OfflineAudioContext(2, Math.ceil(duration * RATE), RATE);
  const at = (name) => scenes.find((scene) => scene[2] === name);
  const sceneStart = (name) => at(name)[0];
  const sceneLength = (name) => at(name)[1] - at(name)[0];
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const noise = ctx.createBuffer(1, RATE * 2, RATE);
  const samples = noise.getChannelData(0);
  for (let i = 0; i < samples.length; i += 1) samples[i] = random() * 2 - 1;

  const master = ctx.createDynamicsCompressor();
  master.threshold.value = -14;
  master.ratio.value = 4;
  const out = ctx.createGain();
  out.gain.setValueAtTime(0, 0);
  out.gain.linearRampToValueAtTime(0.9, 0.6);
  out.gain.setValueAtTime(0.9, duration - 1.5);
  out.gain.linearRampToValueAtTime(0, duration - 0.05);
  master.connect(out).connect(ctx.destination);
  const bus = (level, pan = 0) => {
    const gain = ctx.createGain();
    gain.gain.value = level;
    const panner = ctx.createStereoPanner();
    panner.pan.value = pan;
    gain.connect(panner).connect(master);
    return gain;
  };
  /** A burst of filtered noise: rain, steps, shots, cocking clicks. */
  const noiseHit = (when, length, { type = 'lowpass', freq = 800, q = 1, level = 1, pan = 0 }) => {
    const source = ctx.createBufferSource();
    source.buffer = noise;
    source.loop = true;
    const filter = ctx.createBiquadFilter();
    filter.type = type;
    filter.frequency.value = freq;
    filter.Q.value = q;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0, when);
    env.gain.linearRampToValueAtTime(level, when + 0.004);
    env.gain.exponentialRampToValueAtTime(0.0001, when + length);
    source.connect(filter).connect(env).connect(bus(1, pan));
    source.start(when, random());
    source.stop(when + length + 0.05);
  };
  /** A tone with an attack and a decay (oscillator `type`), into `target`. */
  const tone = (when, length, freq, { type = 'sine', level = 0.3, attack = 0.01, target }) => {
    const osc = ctx.createOscillator();
    osc.type = type;
    osc.frequency.value = freq;
    const env = ctx.createGain();
    env.gain.setValueAtTime(0, when);
    env.gain.linearRampToValueAtTime(level, when + attack);
    env.gain.exponentialRampToValueAtTime(0.0001, when + length);
    osc.connect(env).connect(target ?? bus(1));
    osc.start(when);
    osc.stop(when + length + 0.05);
  };
  const hz = (midi) => 440 * 2 ** ((midi - 69) / 12);

  // Rain the whole clip long, heavier in the city, quieter under the weapons' light.
  const rain = ctx.createBufferSource();
  rain.buffer = noise;
  rain.loop = true;
  const rainTone = ctx.createBiquadFilter();
  rainTone.type = 'bandpass';
  rainTone.frequency.value = 2600;
  rainTone.Q.value = 0.6;
  const rainLevel = ctx.createGain();
  rainLevel.gain.setValueAtTime(0.15, 0);
  rainLevel.gain.setValueAtTime(0.15, sceneStart('weapons') - 0.3);
  rainLevel.gain.linearRampToValueAtTime(0.05, sceneStart('weapons'));
  rainLevel.gain.setValueAtTime(0.05, sceneStart('fight') - 0.3);
  rainLevel.gain.linearRampToValueAtTime(0.1, sceneStart('fight'));
  rain.connect(rainTone).connect(rainLevel).connect(master);
  rain.start(0);
  rain.stop(duration);

  // The neon's buzz in the city: a low hum that flickers with the sign.
  const buzz = ctx.createOscillator();
  buzz.type = 'sawtooth';
  buzz.frequency.value = 100;
  const buzzTone = ctx.createBiquadFilter();
  buzzTone.type = 'lowpass';
  buzzTone.frequency.value = 500;
  const buzzLevel = ctx.createGain();
  buzzLevel.gain.setValueAtTime(0, 0);
  for (let t = 0.2; t < sceneLength('city'); t += 0.37)
    buzzLevel.gain.setValueAtTime(random() > 0.8 ? 0.005 : 0.03, t);
  buzzLevel.gain.setValueAtTime(0, sceneStart('city') + sceneLength('city'));
  buzz.connect(buzzTone).connect(buzzLevel).connect(master);
  buzz.start(0);
  buzz.stop(sceneLength('city') + 0.1);

  // The score: A minor at 96 beats a minute; a pad from the start, the bass ostinato from the
  // gangsters, hi-hats from the weapons, the kick from the fight, a major chord for the payoff.
  const BEAT = 60 / 96;
  const pad = bus(0.9);
  const padTone = ctx.createBiquadFilter();
  padTone.type = 'lowpass';
  padTone.frequency.value = 900;
  padTone.connect(pad);
  const chords = [
    [57, 60, 64],
    [53, 57, 60],
    [55, 59, 62],
    [52, 56, 59],
  ];
  const payoff = sceneStart('payoff');
  for (let bar = 0, t = 0; t < payoff; bar += 1, t += BEAT * 4)
    for (const note of chords[bar % chords.length])
      tone(t, BEAT * 4.4, hz(note - 12), {
        type: 'triangle',
        level: 0.05,
        attack: 0.8,
        target: padTone,
      });
  for (const note of [57, 61, 64, 69])
    tone(payoff, duration - payoff, hz(note - 12), {
      type: 'triangle',
      level: 0.07,
      attack: 0.4,
      target: padTone,
    });

  const bass = bus(1);
  const bassTone = ctx.createBiquadFilter();
  bassTone.type = 'lowpass';
  bassTone.frequency.value = 420;
  bassTone.connect(bass);
  const riff = [45, 45, 48, 45, 52, 45, 50, 48];
  for (let i = 0, t = sceneStart('gangsters'); t < payoff; i += 1, t += BEAT / 2)
    tone(t, BEAT * 0.45, hz(riff[i % riff.length] - 12), {
      type: 'sawtooth',
      level: 0.22,
      target: bassTone,
    });
  for (const [i, note] of [45, 49, 52, 57].entries())
    tone(payoff + i * 0.12, 3.5, hz(note - 12), {
      type: 'sawtooth',
      level: 0.12,
      target: bassTone,
    });

  for (let t = sceneStart('weapons'); t < payoff; t += BEAT / 2)
    noiseHit(t, 0.05, { type: 'highpass', freq: 7000, level: 0.12, pan: 0.3 });
  for (let t = sceneStart('fight'); t < payoff; t += BEAT) {
    const kick = ctx.createOscillator();
    kick.frequency.setValueAtTime(120, t);
    kick.frequency.exponentialRampToValueAtTime(40, t + 0.25);
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.7, t);
    env.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
    kick.connect(env).connect(bus(0.8));
    kick.start(t);
    kick.stop(t + 0.35);
  }

  // The gangsters' steps, each as he steps out (the frames: 0.1 + 0.2 i of the scene).
  for (let i = 0; i < 3; i += 1) {
    const step = sceneStart('gangsters') + sceneLength('gangsters') * (0.1 + i * 0.2);
    for (let k = 0; k < 3; k += 1)
      noiseHit(step + k * 0.32, 0.12, { freq: 300, level: 0.6, pan: [-0.5, 0.5, 0][i] });
  }
  // Each weapon cocked as it comes into the light (the frames: 0.13 i of the scene).
  for (let i = 0; i < 5; i += 1) {
    const when = sceneStart('weapons') + sceneLength('weapons') * 0.13 * i + 0.05;
    const pan = -0.7 + 0.35 * i;
    noiseHit(when, 0.04, { type: 'bandpass', freq: 3200, q: 6, level: 0.7, pan });
    noiseHit(when + 0.09, 0.06, { type: 'bandpass', freq: 2100, q: 5, level: 0.6, pan });
  }
  // The fight's seven shots (the frames' muzzle flashes), left and right in turn.
  const shots = [0.12, 0.2, 0.36, 0.44, 0.6, 0.68, 0.82];
  for (const [i, s] of shots.entries()) {
    const when = sceneStart('fight') + sceneLength('fight') * s;
    const pan = i % 2 === 0 ? -0.6 : 0.6;
    noiseHit(when, 0.5, { freq: 1800, level: 1, pan });
    noiseHit(when, 0.9, { freq: 180, level: 0.9, pan });
  }
  // Coins for the payoff as the loot rises.
  for (let i = 0; i < 10; i += 1) {
    const when = payoff + 0.2 + i * 0.17 + random() * 0.05;
    tone(when, 0.5, 2093 + random() * 900, { level: 0.08, target: bus(1, random() * 1.4 - 0.7) });
  }
  return ctx.startRendering();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage();
  await page.evaluate(`window.scoreOf = ${scoreOf.toString()}`);
  await page.evaluate(`window.drawSceneFrame = ${drawSceneFrame}`);
  const result = await page.evaluate(
    async ({ city, font, icons, scenes, duration, tail, bitrate, audioBitrate }) => {
      const W = 960;
      const H = 540;
      const face = new FontFace('Promo Display', `url(data:font/woff2;base64,${font})`);
      document.fonts.add(await face.load());
      // The landing's scene at its first moment, 1600×900, without its gang or its rain.
      const art = window.drawSceneFrame({ source: city, width: 1600, height: 900, gang: 0 }).canvas;
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
        // The line of the scene: in, hold, out; at the top, a dark band behind it for the words
        // (the bottom of the frame is where a player's controls sit).
        const band = ctx.createLinearGradient(0, 0, 0, 130);
        band.addColorStop(0, 'rgba(6,5,9,0.85)');
        band.addColorStop(1, 'rgba(6,5,9,0)');
        ctx.fillStyle = band;
        ctx.fillRect(0, 0, W, 130);
        const fade = Math.min(ease((local - 0.12) * 5), ease((1 - local) * 6));
        ctx.save();
        ctx.globalAlpha = fade;
        ctx.textAlign = 'center';
        ctx.shadowColor = 'rgba(0,0,0,0.8)';
        ctx.shadowBlur = 10;
        ctx.fillStyle = '#f3ece2';
        ctx.font = '700 34px "Promo Display", Georgia, serif';
        ctx.fillText(line, W / 2, 62);
        ctx.restore();
        // A cut: one dark frame between scenes, a short fade from and to black at the ends.
        const edge = Math.min(t, duration - t, Math.abs(t - from), Math.abs(to - t));
        if (edge < 0.25) {
          ctx.fillStyle = `rgba(0,0,0,${1 - edge / 0.25})`;
          ctx.fillRect(0, 0, W, H);
        }
      };

      // The sound, rendered ahead in full (the same samples every run), then played into the
      // recording as it starts.
      const score = await window.scoreOf(scenes, duration);
      const audio = new AudioContext({ sampleRate: score.sampleRate });
      await audio.resume();
      const soundOut = audio.createMediaStreamDestination();

      drawFrame(0.26);
      // Frames are pushed by hand after each draw (requestFrame): a headless page's canvas is
      // never composited, so an automatic capture would keep the first frame only.
      const track = canvas.captureStream(0).getVideoTracks()[0];
      const stream = new MediaStream([track, ...soundOut.stream.getAudioTracks()]);
      const mimeType = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus'].find((type) =>
        MediaRecorder.isTypeSupported(type),
      );
      if (!mimeType) throw new Error('this Chromium records no WebM with Opus sound');
      const recorder = new MediaRecorder(stream, {
        mimeType,
        videoBitsPerSecond: bitrate,
        audioBitsPerSecond: audioBitrate,
        videoKeyFrameIntervalDuration: 3000,
      });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((r) => (recorder.onstop = r));
      recorder.start();
      const player = audio.createBufferSource();
      player.buffer = score;
      player.connect(soundOut);
      player.start();
      const started = performance.now();
      let frames = 0;
      await new Promise((finish) => {
        const tick = () => {
          const t = (performance.now() - started) / 1000;
          drawFrame(Math.min(t, duration));
          track.requestFrame();
          frames += 1;
          // A last moment of black after the fade, so the file is never short of the clip.
          if (t < duration + tail) setTimeout(tick, 1000 / 24);
          else finish();
        };
        tick();
      });
      recorder.stop();
      await done;
      await audio.close();
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
      audioBitrate: AUDIO_BITRATE,
      tail: TAIL_S,
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
