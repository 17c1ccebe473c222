/**
 * Whether the key art's scene may move, from what the device says and what one probe frame cost
 * (src/views/home/keyArt/scene.ts). Motion stops for a player who asked for less of it, a phone
 * saving data or low on battery, a browser without WebGL or whose WebGL is drawn on the CPU, and a device whose GPU (or software
 * renderer) would spend more than a quarter of each frame on it even at a lower resolution: then
 * the poster frame stays, which is the same scene standing still.
 */
export interface SceneSignals {
  reducedMotion: boolean;
  saveData: boolean;
  lowBattery: boolean;
  webgl: boolean;
  /**
   * WebGL drawn by the CPU (SwiftShader, llvmpipe: a browser without a usable GPU): its shader
   * build and probe alone would take the cores the page needs, so it is not even probed.
   */
  softwareRenderer: boolean;
  /** One full-size frame's cost, estimated from a probe; null before the probe ran. */
  probeMs: number | null;
}

export type SceneVerdict =
  { kind: 'still'; reason: string } | { kind: 'probe' } | { kind: 'live'; scale: number };

/** The scene's share of a 30 fps frame: a quarter of it. */
export const SCENE_FRAME_BUDGET_MS = 8;
/** The resolutions tried, largest first: a frame at half the size costs a quarter. */
const SCENE_SCALES = [1, 0.75, 0.5] as const;

export function sceneVerdict(signals: SceneSignals): SceneVerdict {
  if (signals.reducedMotion) return { kind: 'still', reason: 'reduced motion' };
  if (signals.saveData) return { kind: 'still', reason: 'saving data' };
  if (signals.lowBattery) return { kind: 'still', reason: 'low battery' };
  if (!signals.webgl) return { kind: 'still', reason: 'no WebGL' };
  if (signals.softwareRenderer) return { kind: 'still', reason: 'a software renderer' };
  if (signals.probeMs === null) return { kind: 'probe' };
  const probe = signals.probeMs;
  const scale = SCENE_SCALES.find((s) => probe * s * s <= SCENE_FRAME_BUDGET_MS);
  return scale === undefined
    ? { kind: 'still', reason: `a frame would take ${Math.round(probe)} ms` }
    : { kind: 'live', scale };
}

/** A WebGL renderer's name (its unmasked one where the browser gives it) that means the CPU draws. */
export const isSoftwareRenderer = (renderer: string): boolean =>
  /swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer);
