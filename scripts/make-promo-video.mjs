#!/usr/bin/env node
// Renders the short promo clip (public/media/promo.webm) in Debian Chromium: a canvas title card
// drawn frame by frame and recorded with MediaRecorder. Nothing is downloaded; run it again to
// change the clip.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';

const out = resolve(import.meta.dirname, '../public/media/promo.webm');
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
const page = await browser.newPage();
const base64 = await page.evaluate(async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 360;
  document.body.appendChild(canvas);
  const ctx = canvas.getContext('2d');
  const stream = canvas.captureStream(24);
  const recorder = new MediaRecorder(stream, {
    mimeType: 'video/webm;codecs=vp8',
    videoBitsPerSecond: 400_000,
  });
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const done = new Promise((r) => (recorder.onstop = r));
  recorder.start();
  const lines = ['Recruit Gangsters', 'Own Properties', 'Raid rival Gangs', 'Solana Mafia Wars'];
  const started = performance.now();
  await new Promise((resolveDraw) => {
    const draw = () => {
      const t = (performance.now() - started) / 1000;
      const g = ctx.createLinearGradient(0, 0, 0, 360);
      g.addColorStop(0, '#1b1410');
      g.addColorStop(1, '#0d0b0a');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 640, 360);
      ctx.fillStyle = 'rgba(212,166,74,0.8)';
      ctx.beginPath();
      ctx.arc(480, 110, 60 + 4 * Math.sin(t * 2), 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#0d0b0a';
      for (let i = 0; i < 12; i += 1) {
        const h = 90 + ((i * 53) % 120);
        ctx.fillRect(i * 55 - ((t * 20) % 55), 360 - h, 50, h);
      }
      const index = Math.min(lines.length - 1, Math.floor(t / 1.5));
      const phase = (t % 1.5) / 1.5;
      ctx.globalAlpha = index === lines.length - 1 ? 1 : Math.sin(phase * Math.PI);
      ctx.fillStyle = '#f3ece2';
      ctx.font = 'bold 44px Georgia, serif';
      ctx.textAlign = 'center';
      ctx.fillText(lines[index], 320, 200);
      ctx.globalAlpha = 1;
      if (t < 6.5) requestAnimationFrame(draw);
      else resolveDraw();
    };
    draw();
  });
  recorder.stop();
  await done;
  const buffer = await new Blob(chunks, { type: 'video/webm' }).arrayBuffer();
  let binary = '';
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
});
writeFileSync(out, Buffer.from(base64, 'base64'));
console.log(`wrote ${out} (${Math.round((base64.length * 0.75) / 1024)} KB)`);
await browser.close();
