#!/usr/bin/env node
// Renders the key art scene's poster frames from its own shader (src/views/home/keyArt/
// scene.frag) in Debian Chromium's WebGL, so the first paint is a frame of the scene the page
// later runs live: public/media/key-art-scene.webp (wide, for screens from 720 px) and
// public/media/key-art-scene-narrow.webp (a phone's middle of the same frame). Both are drawn at
// the scene's first moment without its rain (the page's own rain falls on the poster).
// Run after changing the shader: `node scripts/make-key-art-scene.mjs` (`--look DIR` also writes
// PNGs of the live frame at a phone's and a desktop's size, rain included, to look at).
import { writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const shader = readFileSync(resolve(root, 'src/views/home/keyArt/scene.frag'), 'utf8');
const lookAt = process.argv.includes('--look')
  ? process.argv[process.argv.indexOf('--look') + 1]
  : null;

/** The frames to write: [file, width, height, time, rain, quality]. */
const POSTERS = [
  ['public/media/key-art-scene.webp', 2400, 900, 0, 0, 0.72],
  ['public/media/key-art-scene-narrow.webp', 900, 900, 0, 0, 0.72],
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
  const frames = lookAt ? LOOKS : POSTERS;
  for (const [file, width, height, time, rain, quality] of frames) {
    const { url, ms } = await page.evaluate(
      ([source, w, h, t, r, q, png]) => {
        document.body.replaceChildren();
        const canvas = document.body.appendChild(document.createElement('canvas'));
        canvas.width = w;
        canvas.height = h;
        const gl = canvas.getContext('webgl', { preserveDrawingBuffer: true });
        const compile = (type, text) => {
          const s = gl.createShader(type);
          gl.shaderSource(s, text);
          gl.compileShader(s);
          if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
          return s;
        };
        const program = gl.createProgram();
        gl.attachShader(
          program,
          compile(gl.VERTEX_SHADER, 'attribute vec2 a;void main(){gl_Position=vec4(a,0.,1.);}'),
        );
        gl.attachShader(program, compile(gl.FRAGMENT_SHADER, source));
        gl.linkProgram(program);
        gl.useProgram(program);
        gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
        gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
        gl.viewport(0, 0, w, h);
        gl.uniform2f(gl.getUniformLocation(program, 'uRes'), w, h);
        gl.uniform1f(gl.getUniformLocation(program, 'uTime'), t);
        gl.uniform2f(gl.getUniformLocation(program, 'uShift'), 0, 0);
        gl.uniform1f(gl.getUniformLocation(program, 'uRain'), r);
        gl.uniform1f(gl.getUniformLocation(program, 'uGang'), 1);
        const start = performance.now();
        gl.drawArrays(gl.TRIANGLES, 0, 3);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        const ms = performance.now() - start;
        return { url: canvas.toDataURL(png ? 'image/png' : 'image/webp', q), ms };
      },
      [shader, width, height, time, rain, quality ?? 0.9, Boolean(lookAt)],
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
