import { describe, expect, it } from 'vitest';
import { mainThreadFigures, type TraceEvent } from '../../scripts/traceFigures';

const PAGE = { pid: 7, tid: 1 };
const nav: TraceEvent = {
  name: 'navigationStart',
  ...PAGE,
  ts: 1_000,
  args: { data: { documentLoaderURL: 'http://127.0.0.1:4000/', isLoadingMainFrame: true } },
};
const fcp: TraceEvent = { name: 'firstContentfulPaint', ...PAGE, ts: 100_000 };
/** A task of the page's main thread: start and wall time in ms, CPU time in ms. */
const task = (startMs: number, wallMs: number, cpuMs: number, at = PAGE): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ...at,
  ts: startMs * 1000,
  dur: wallMs * 1000,
  tdur: cpuMs * 1000,
});

describe("the bench's main-thread figures from Lighthouse's trace", () => {
  it('applies the 4× rule (time over 50 ms) to wall time and to CPU time, after the first paint', () => {
    const figures = mainThreadFigures([
      nav,
      fcp,
      task(50, 40, 40), // ends before the first paint: not counted
      task(80, 40, 20), // running at the first paint (100 ms): its last 20 ms, 10 of CPU count
      task(200, 30, 10), // 120 ms → 70 by wall; 40 ms → 0 by CPU
      task(300, 20, 15), // 80 → 30; 60 → 10
      task(400, 10, 10), // 40 → 0 both
      task(500, 90, 90, { pid: 7, tid: 2 }), // another thread: not counted
    ]);
    // 20 ms → 80 → 30 by wall; 10 ms → 40 → 0 by CPU.
    expect(figures.wallBlocking).toBeCloseTo(130);
    expect(figures.cpuBlocking).toBeCloseTo(10);
    expect(figures.waitRatio).toBeCloseTo(80 / 45);
  });

  it("reads the page's navigation, not a blank page's or a frame's after it", () => {
    const blank: TraceEvent = {
      ...nav,
      ts: 50_000,
      pid: 3,
      args: { data: { documentLoaderURL: 'about:blank', isLoadingMainFrame: true } },
    };
    const frame: TraceEvent = {
      ...nav,
      ts: 60_000,
      pid: 4,
      args: { data: { documentLoaderURL: 'http://127.0.0.1:4000/ad', isLoadingMainFrame: false } },
    };
    const figures = mainThreadFigures([nav, blank, frame, fcp, task(200, 30, 30)]);
    expect(figures.wallBlocking).toBeCloseTo(70);
  });

  it('gives NaN, never 0, when the trace lacks the page, its first paint or its tasks', () => {
    for (const events of [undefined, [], [nav], [nav, fcp], [fcp, task(200, 30, 30)]]) {
      const figures = mainThreadFigures(events);
      expect(figures.wallBlocking).toBeNaN();
      expect(figures.cpuBlocking).toBeNaN();
      expect(figures.waitRatio).toBeNaN();
    }
  });
});
