import fragmentSource from './scene.frag?raw';
import { rendererName } from './rendererName';
import { isSoftwareRenderer, sceneVerdict, type SceneSignals } from './sceneVerdict';

/**
 * The key art's live scene (scene.frag) on the hero's canvas: loaded once the landing is idle
 * (useKeyArtScene), it decides from the device's signals and one small timed probe frame whether
 * the city may move (sceneVerdict), then draws at 30 frames a second while the hero is on screen
 * and the tab visible, and fades in over its poster frame (the same shader's first moment). What
 * it decided is written on the art (`data-scene`), so a reader and a test see why it runs or not.
 */
const FRAME_MS = 1000 / 30;
/** The probe draws this share of the canvas's pixels, and its cost is scaled up from it. */
const PROBE_SHARE = 1 / 64;
/** Frames that arrive this late this often mean the device cannot keep up: the scene stops. */
const LATE_FRAME_MS = 70;
const LATE_FRAMES_TO_STOP = 20;
/** The drawing never exceeds this many pixels (a large desktop), whatever the pixel ratio. */
const MAX_PIXELS = 1_300_000;
const VERTEX_SOURCE = 'attribute vec2 a;void main(){gl_Position=vec4(a,0.0,1.0);}';

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

interface Program {
  gl: WebGL2RenderingContext;
  draw: (width: number, height: number, time: number, shift: [number, number]) => void;
}

function compile(gl: WebGL2RenderingContext): WebGLProgram | null {
  const program = gl.createProgram();
  for (const [type, source] of [
    [gl.VERTEX_SHADER, VERTEX_SOURCE],
    [gl.FRAGMENT_SHADER, fragmentSource],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) return null;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  return program;
}

/** Waits for the driver to finish linking without blocking the page (where it can say so). */
async function linked(gl: WebGL2RenderingContext, program: WebGLProgram): Promise<boolean> {
  const parallel = gl.getExtension('KHR_parallel_shader_compile');
  if (parallel) {
    while (!gl.getProgramParameter(program, parallel.COMPLETION_STATUS_KHR)) {
      await nextFrame();
      if (gl.isContextLost()) return false;
    }
  }
  return gl.getProgramParameter(program, gl.LINK_STATUS) === true;
}

/** The canvas's WebGL 2 context: for its fences, the page waits for the GPU without blocking. */
function context(canvas: HTMLCanvasElement): WebGL2RenderingContext | null {
  return canvas.getContext('webgl2', {
    alpha: false,
    antialias: false,
    depth: false,
    stencil: false,
    powerPreference: 'low-power',
    preserveDrawingBuffer: false,
  });
}

/** How long the renderer's name is waited for from the worker before the page asks itself. */
const RENDERER_WORKER_MS = 5000;

/**
 * The renderer's name as a worker sees it (./rendererName.worker.ts), so that a software renderer
 * is known without the page's own thread creating a context; undefined where workers cannot say
 * (no OffscreenCanvas, no WebGL 2 in a worker, a worker that failed or did not answer in time):
 * then the page's own context says.
 */
function rendererNameOffPage(): Promise<string | undefined> {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined')
    return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./rendererName.worker.ts', import.meta.url), {
        type: 'module',
        name: 'renderer name',
      });
    } catch {
      resolve(undefined);
      return;
    }
    const done = (name: string | undefined) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(name);
    };
    const timer = setTimeout(() => done(undefined), RENDERER_WORKER_MS);
    worker.onmessage = (event: MessageEvent<string | null>) => done(event.data ?? undefined);
    worker.onerror = () => done(undefined);
  });
}

/** The scene's program on `gl` (the shader itself is GLSL ES 1.00), built off the page. */
async function prepare(gl: WebGL2RenderingContext): Promise<Program | null> {
  const program = compile(gl);
  if (!program || !(await linked(gl, program))) return null;
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  const res = gl.getUniformLocation(program, 'uRes');
  const time = gl.getUniformLocation(program, 'uTime');
  const shift = gl.getUniformLocation(program, 'uShift');
  gl.uniform1f(gl.getUniformLocation(program, 'uRain'), 1);
  gl.uniform1f(gl.getUniformLocation(program, 'uGang'), 1);
  return {
    gl,
    draw(width, height, t, [sx, sy]) {
      gl.viewport(0, 0, width, height);
      gl.uniform2f(res, width, height);
      gl.uniform1f(time, t);
      gl.uniform2f(shift, sx, sy);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    },
  };
}

/** Waits, a frame at a time and never blocking the page, for the GPU to finish what it was given. */
async function settled(gl: WebGL2RenderingContext): Promise<boolean> {
  const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!fence) return false;
  gl.flush();
  while (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) {
    await nextFrame();
    if (gl.isContextLost()) return false;
  }
  gl.deleteSync(fence);
  return true;
}

/**
 * The time of one frame at the canvas's full size, from a frame of a small share of it. A
 * pixel's first draw also builds the shader's machine code (most of a second in a software
 * renderer), so one pixel is drawn and waited for first; then the probe's own wait is short.
 */
async function probeMs(program: Program, width: number, height: number): Promise<number | null> {
  program.draw(1, 1, 0, [0, 0]);
  if (!(await settled(program.gl))) return null;
  const side = Math.sqrt(PROBE_SHARE);
  const w = Math.max(1, Math.round(width * side));
  const h = Math.max(1, Math.round(height * side));
  const pixel = new Uint8Array(4);
  const start = performance.now();
  program.draw(w, h, 0, [0, 0]);
  // Reading a pixel back waits for the frame to be drawn: the probe's only synchronous wait.
  program.gl.readPixels(0, 0, 1, 1, program.gl.RGBA, program.gl.UNSIGNED_BYTE, pixel);
  return (performance.now() - start) / PROBE_SHARE;
}

async function lowBattery(): Promise<boolean> {
  const nav = navigator as Navigator & {
    getBattery?: () => Promise<{ charging: boolean; level: number }>;
  };
  try {
    const battery = await nav.getBattery?.();
    return battery ? !battery.charging && battery.level <= 0.2 : false;
  } catch {
    return false;
  }
}

/** Starts the scene on the hero's art layer, until the art leaves the page. */
export async function startScene(): Promise<void> {
  const art = document.querySelector<HTMLElement>('.hero-art');
  const canvas = art?.querySelector('canvas');
  if (art && canvas && !art.dataset.scene) await begin(art, canvas);
}

async function begin(art: HTMLElement, canvas: HTMLCanvasElement) {
  let stopped = false;
  const cleanups: Array<() => void> = [];
  const handle = {
    stop() {
      stopped = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
  art.dataset.scene = 'loading';
  const say = (state: string) => {
    if (!stopped) art.dataset.scene = state;
  };
  const motion = matchMedia('(prefers-reduced-motion: reduce)');
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  const signals: SceneSignals = {
    reducedMotion: motion.matches,
    saveData: connection?.saveData === true,
    lowBattery: await lowBattery(),
    webgl: true,
    softwareRenderer: false,
    probeMs: null,
  };
  let verdict = sceneVerdict(signals);
  // A software renderer is known from a worker first: the poster stays without the page's own
  // thread ever creating a context.
  if (verdict.kind === 'probe') {
    const offPage = await rendererNameOffPage();
    if (stopped) return;
    if (offPage !== undefined && isSoftwareRenderer(offPage))
      verdict = sceneVerdict({ ...signals, softwareRenderer: true });
  }
  const gl = verdict.kind === 'probe' ? context(canvas) : null;
  if (verdict.kind === 'probe' && gl)
    verdict = sceneVerdict({ ...signals, softwareRenderer: isSoftwareRenderer(rendererName(gl)) });
  if (verdict.kind === 'probe') {
    const program = gl && (await prepare(gl));
    if (stopped) return;
    if (!program) verdict = sceneVerdict({ ...signals, webgl: false });
    else {
      const size = canvasSize(canvas);
      const probe = await probeMs(program, size.width, size.height);
      if (stopped) return;
      verdict = sceneVerdict(
        probe === null ? { ...signals, webgl: false } : { ...signals, probeMs: probe },
      );
      if (verdict.kind === 'live') run(program, verdict.scale);
    }
  }
  if (verdict.kind === 'still') say(`still: ${verdict.reason}`);

  function run(program: Program, scale: number) {
    let visible = document.visibilityState === 'visible';
    let onScreen = true;
    let frame = 0;
    let last = 0;
    let late = 0;
    let shown = false;
    let shift: [number, number] = [0, 0];
    const began = performance.now();
    const tick = (now: number) => {
      frame = 0;
      if (!art.isConnected) handle.stop();
      if (stopped || !visible || !onScreen || motion.matches) return;
      frame = requestAnimationFrame(tick);
      if (last && now - last < FRAME_MS - 2) return;
      if (last && now - last > LATE_FRAME_MS && ++late >= LATE_FRAMES_TO_STOP) {
        handle.stop();
        art.dataset.scene = 'still: the device cannot keep up';
        return;
      }
      last = now;
      const size = canvasSize(canvas, scale);
      if (canvas.width !== size.width || canvas.height !== size.height) {
        canvas.width = size.width;
        canvas.height = size.height;
      }
      program.draw(size.width, size.height, (now - began) / 1000, shift);
      if (!shown) {
        shown = true;
        say('live');
      }
    };
    const resume = () => {
      if (!frame && !stopped) {
        last = 0;
        frame = requestAnimationFrame(tick);
      }
    };
    const onVisibility = () => {
      visible = document.visibilityState === 'visible';
      if (visible) resume();
    };
    const observer = new IntersectionObserver(([entry]) => {
      onScreen = entry?.isIntersecting ?? true;
      if (onScreen) resume();
    });
    observer.observe(art);
    // The pointer leans the layers apart a little (depth): the gang more than the far towers.
    const onPointer = (event: PointerEvent) => {
      shift = [
        (event.clientX / innerWidth - 0.5) * 0.03,
        (event.clientY / innerHeight - 0.5) * -0.01,
      ];
    };
    const onMotion = () => {
      if (motion.matches) say('still: reduced motion');
      else resume();
    };
    document.addEventListener('visibilitychange', onVisibility);
    addEventListener('pointermove', onPointer, { passive: true });
    motion.addEventListener('change', onMotion);
    cleanups.push(() => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
      removeEventListener('pointermove', onPointer);
      motion.removeEventListener('change', onMotion);
    });
    resume();
  }
}

/** The canvas's drawing size: its box at the device's pixel ratio, within MAX_PIXELS. */
function canvasSize(canvas: HTMLCanvasElement, scale = 1) {
  const box = canvas.getBoundingClientRect();
  let ratio = Math.min(devicePixelRatio || 1, 1.5) * scale;
  const pixels = box.width * box.height * ratio * ratio;
  if (pixels > MAX_PIXELS) ratio *= Math.sqrt(MAX_PIXELS / pixels);
  return {
    width: Math.max(1, Math.round(box.width * ratio)),
    height: Math.max(1, Math.round(box.height * ratio)),
  };
}
