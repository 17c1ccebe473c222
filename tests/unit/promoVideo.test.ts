import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMO_VIDEO_LENGTH } from '../../src/views/home/landing.content';

/**
 * The trailer as a player gets it (public/media/promo.webm, made by scripts/make-promo-video.mjs),
 * read by FFmpeg's own tools: a video stream and a sound track, 30 to 45 s long, and sound in
 * every one of its five scenes (not a silent track).
 */
const CLIP = resolve(import.meta.dirname, '../../public/media/promo.webm');
/** The clip's scenes, 6 s each (the script's SCENES). */
const SCENES = ['the city', 'the gangsters', 'the weapons', 'the fight', 'the payoff'];
const SCENE_S = 6;
/** Where the tests keep what a reviewer looks at. */
const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

/** Runs an FFmpeg tool; its absence is a failure that says how to install it. */
function ffmpegTool(tool: 'ffprobe' | 'ffmpeg', args: string[]): string {
  const run = spawnSync(tool, args, { encoding: 'utf8' });
  if (run.error && 'code' in run.error && run.error.code === 'ENOENT')
    throw new Error(`${tool} not found: install FFmpeg (Debian: apt-get install -y ffmpeg)`);
  if (run.status !== 0) throw new Error(`${tool} failed: ${run.stderr}`);
  return run.stdout + run.stderr;
}

type Probe = {
  streams: { codec_type: string; codec_name: string; channels?: number; sample_rate?: string }[];
  format: { duration: string };
};

/** The mean loudness in dB of the sound from `from` for `seconds`. */
function meanVolume(from: number, seconds: number): number {
  const out = ffmpegTool('ffmpeg', [
    '-hide_banner',
    '-ss',
    String(from),
    '-t',
    String(seconds),
    '-i',
    CLIP,
    '-map',
    '0:a',
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const found = /mean_volume: (-?[\d.]+|-inf) dB/.exec(out);
  if (!found) throw new Error(`volumedetect printed no mean volume:\n${out}`);
  return found[1] === '-inf' ? -Infinity : Number(found[1]);
}

describe('the trailer (public/media/promo.webm)', () => {
  const probe = JSON.parse(
    ffmpegTool('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,channels,sample_rate:format=duration',
      '-of',
      'json',
      CLIP,
    ]),
  ) as Probe;

  it('has a video stream and a sound track, and lasts 30 to 45 s', () => {
    const video = probe.streams.find((stream) => stream.codec_type === 'video');
    const audio = probe.streams.find((stream) => stream.codec_type === 'audio');
    expect(video?.codec_name).toMatch(/^vp[89]$/);
    expect(audio, 'an audio stream').toBeDefined();
    expect(audio?.codec_name).toBe('opus');
    expect(audio?.channels).toBe(2);
    const duration = Number(probe.format.duration);
    console.log(
      `trailer: ${duration.toFixed(1)} s, ${video?.codec_name} + ${audio?.codec_name} ${audio?.channels} ch`,
    );
    expect(duration).toBeGreaterThanOrEqual(30);
    expect(duration).toBeLessThanOrEqual(45);
    // The hero says its length: the file's whole seconds, as m:ss.
    const whole = Math.floor(duration);
    expect(PROMO_VIDEO_LENGTH).toBe(
      `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`,
    );
  });

  it('shows every scene: a key frame of each, kept for review, none of them black', () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const brightness = SCENES.map((scene, i) => {
      const at = i * SCENE_S + SCENE_S / 2;
      const file = join(SCREENSHOTS, `trailer-${i + 1}-${scene.replace(/^the /, '')}.png`);
      const out = ffmpegTool('ffmpeg', [
        '-hide_banner',
        '-y',
        '-ss',
        String(at),
        '-i',
        CLIP,
        '-frames:v',
        '1',
        '-vf',
        'signalstats,metadata=print:key=lavfi.signalstats.YAVG',
        file,
      ]);
      const luma = /YAVG=([\d.]+)/.exec(out);
      expect(statSync(file).size, file).toBeGreaterThan(10_000);
      return { scene, luma: Number(luma?.[1] ?? NaN) };
    });
    console.log(
      `trailer key frames: ${brightness.map(({ scene, luma }) => `${scene} ${luma.toFixed(0)}`).join(', ')} (mean luma of 255)`,
    );
    for (const { scene, luma } of brightness) expect(luma, scene).toBeGreaterThan(12);
  });

  it('is heard in every scene: a mean loudness above -40 dB each', () => {
    const levels = SCENES.map((scene, i) => ({ scene, db: meanVolume(i * SCENE_S, SCENE_S) }));
    console.log(
      `trailer sound: ${levels.map(({ scene, db }) => `${scene} ${db.toFixed(1)} dB`).join(', ')}`,
    );
    for (const { scene, db } of levels) expect(db, scene).toBeGreaterThan(-40);
  });
});
