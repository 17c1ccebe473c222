import { describe, expect, it } from 'vitest';
import {
  SCENE_FRAME_BUDGET_MS,
  isSoftwareRenderer,
  sceneVerdict,
  type SceneSignals,
} from '../../src/views/home/keyArt/sceneVerdict';

/** A device that says nothing against motion and has WebGL, before its probe. */
const able: SceneSignals = {
  reducedMotion: false,
  saveData: false,
  lowBattery: false,
  webgl: true,
  softwareRenderer: false,
  probeMs: null,
};

describe('whether the key art moves (the issue: motion stops under reduced motion and on a low-power signal)', () => {
  it('stays the poster for a player who asked for less motion, whatever the device can do', () => {
    expect(sceneVerdict({ ...able, reducedMotion: true, probeMs: 1 })).toEqual({
      kind: 'still',
      reason: 'reduced motion',
    });
  });

  it('stays the poster on a low-power signal: saving data, a low battery, no WebGL', () => {
    expect(sceneVerdict({ ...able, saveData: true })).toEqual({
      kind: 'still',
      reason: 'saving data',
    });
    expect(sceneVerdict({ ...able, lowBattery: true })).toEqual({
      kind: 'still',
      reason: 'low battery',
    });
    expect(sceneVerdict({ ...able, webgl: false })).toEqual({ kind: 'still', reason: 'no WebGL' });
  });

  it('never probes WebGL drawn on the CPU: its shader build alone would take the page its cores', () => {
    expect(sceneVerdict({ ...able, softwareRenderer: true })).toEqual({
      kind: 'still',
      reason: 'a software renderer',
    });
    expect(
      isSoftwareRenderer(
        'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
      ),
    ).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('Microsoft Basic Render Driver')).toBe(true);
    expect(
      isSoftwareRenderer('ANGLE (Apple, ANGLE Metal Renderer: Apple M1, Unspecified Version)'),
    ).toBe(false);
    expect(isSoftwareRenderer('Adreno (TM) 640')).toBe(false);
  });

  it('probes first, then runs at the largest resolution whose frame fits a quarter of 30 fps', () => {
    expect(sceneVerdict(able)).toEqual({ kind: 'probe' });
    expect(SCENE_FRAME_BUDGET_MS).toBe(8);
    expect(sceneVerdict({ ...able, probeMs: 3 })).toEqual({ kind: 'live', scale: 1 });
    expect(sceneVerdict({ ...able, probeMs: 8 })).toEqual({ kind: 'live', scale: 1 });
    // 12 ms at full size is 6.75 ms at three quarters of it (9/16 of the pixels).
    expect(sceneVerdict({ ...able, probeMs: 12 })).toEqual({ kind: 'live', scale: 0.75 });
    // 30 ms is 7.5 ms at half the size (a quarter of the pixels).
    expect(sceneVerdict({ ...able, probeMs: 30 })).toEqual({ kind: 'live', scale: 0.5 });
  });

  it('stays the poster where even half the resolution would take more than its share, and says the cost', () => {
    expect(sceneVerdict({ ...able, probeMs: 544 })).toEqual({
      kind: 'still',
      reason: 'a frame would take 544 ms',
    });
  });
});
