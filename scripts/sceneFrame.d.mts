/** One frame of the key art scene on a new canvas (./sceneFrame.mjs); runs in the browser. */
export function drawSceneFrame(frame: {
  source: string;
  width: number;
  height: number;
  time?: number;
  rain?: number;
  gang?: number;
}): { canvas: HTMLCanvasElement; gl: WebGLRenderingContext; ms: number };
