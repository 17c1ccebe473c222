/**
 * A WebGL 2 context's renderer: the unmasked name where the browser gives it, else its plain one.
 * Read by the scene on the page's context (./scene.ts) and by ./rendererName.worker.ts off it.
 */
export function rendererName(gl: WebGL2RenderingContext): string {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
}
