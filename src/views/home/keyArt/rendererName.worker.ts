import { rendererName } from './rendererName';

/**
 * The name of the WebGL 2 renderer this browser gives a page, asked off the page's main thread
 * (src/views/home/keyArt/scene.ts): creating a WebGL context takes tens of milliseconds of the
 * thread that asks (its channel to the GPU process set up while the thread waits), which on a
 * slow phone is a long task in the page's first seconds. Answers the unmasked renderer's name
 * where the browser gives it (else its plain one), or null without WebGL 2 in a worker.
 */
function offscreenRendererName(): string | null {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!gl) return null;
  const name = rendererName(gl);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}

/** A worker's own postMessage (this file is type-checked with the page's DOM library). */
const worker = self as unknown as { postMessage(message: string | null): void };
worker.postMessage(offscreenRendererName());
