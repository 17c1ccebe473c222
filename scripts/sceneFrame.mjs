// One frame of the key art scene (src/views/home/keyArt/scene.frag) drawn on a new canvas with
// WebGL, for the scripts and tests that draw it outside the page: its posters
// (make-key-art-scene.mjs), the trailer's city (make-promo-video.mjs) and the check that the
// posters are its frames (tests/e2e/key-art.spec.ts). It runs in the browser: hand it to the page
// as source (`window.drawSceneFrame = ${drawSceneFrame}`), then call it there.
/**
 * @param {{ source: string, width: number, height: number, time?: number, rain?: number, gang?: number }} frame
 * @returns {{ canvas: HTMLCanvasElement, gl: WebGLRenderingContext, ms: number }}
 */
export function drawSceneFrame({ source, width, height, time = 0, rain = 0, gang = 1 }) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const gl = canvas.getContext('webgl', { preserveDrawingBuffer: true });
  if (!gl) throw new Error('no WebGL in this browser');
  const program = gl.createProgram();
  for (const [type, text] of [
    [gl.VERTEX_SHADER, 'attribute vec2 a;void main(){gl_Position=vec4(a,0.,1.);}'],
    [gl.FRAGMENT_SHADER, source],
  ]) {
    const shader = gl.createShader(type);
    if (!shader) throw new Error('no shader');
    gl.shaderSource(shader, text);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS))
      throw new Error(gl.getShaderInfoLog(shader) ?? 'the shader does not compile');
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.viewport(0, 0, width, height);
  gl.uniform2f(gl.getUniformLocation(program, 'uRes'), width, height);
  gl.uniform1f(gl.getUniformLocation(program, 'uTime'), time);
  gl.uniform2f(gl.getUniformLocation(program, 'uShift'), 0, 0);
  gl.uniform1f(gl.getUniformLocation(program, 'uRain'), rain);
  gl.uniform1f(gl.getUniformLocation(program, 'uGang'), gang);
  const start = performance.now();
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  // Reading a pixel back waits for the frame: the time is the frame's.
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  return { canvas, gl, ms: performance.now() - start };
}
