/** One event of a Chromium trace, as far as the figures below read it. */
export type TraceEvent = {
  name: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts: number;
  /** Wall time, µs. */
  dur?: number;
  /** The thread's CPU time within the event, µs. */
  tdur?: number;
  args?: { data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean } };
};

export type MainThreadFigures = {
  /** Lighthouse's blocking rule on the tasks' wall time, ms. */
  wallBlocking: number;
  /** The same rule on the thread's CPU time within each task, ms. */
  cpuBlocking: number;
  /** The tasks' wall time over their CPU time: how long the thread was off the CPU. */
  waitRatio: number;
};

/** Lighthouse's mobile profile runs the page 4× slower; a task blocks for its time over 50 ms. */
const SLOWDOWN = 4;
const LONG_TASK_MS = 50;

/**
 * The page's main thread in Lighthouse's own trace (`npm run bench`), from the first contentful
 * paint to the end of the trace (Lighthouse stops at its time to interactive; the later tasks are
 * short): its tasks' wall time against the thread's CPU time inside them, and Lighthouse's
 * blocking rule (each task 4× as long, counted for its time over 50 ms) applied to each; a task
 * running at the first paint counts from it, its CPU time in proportion. Wall time beyond CPU
 * time is time off the CPU: on a small machine mostly waiting for a core while the trace's
 * screenshot of every frame and Chromium's software compositor run (also any blocking call). The
 * CPU figure is the page's own work. An estimate beside Lighthouse's TBT (which simulates a graph
 * of its own), not a replacement for it. NaN figures when the trace has no page navigation, first
 * paint or tasks.
 */
export function mainThreadFigures(events: readonly TraceEvent[] | undefined): MainThreadFigures {
  const none = { wallBlocking: NaN, cpuBlocking: NaN, waitRatio: NaN };
  if (!events) return none;
  const nav = events
    .filter(
      (e) =>
        e.name === 'navigationStart' &&
        e.args?.data?.isLoadingMainFrame === true &&
        /^https?:/.test(String(e.args.data.documentLoaderURL ?? '')),
    )
    .at(-1);
  if (!nav) return none;
  const fcp = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.pid === nav.pid && e.ts >= nav.ts,
  );
  if (!fcp) return none;
  const tasks = events.flatMap((e) => {
    if (e.ph !== 'X' || e.name !== 'RunTask' || e.pid !== nav.pid || e.tid !== nav.tid) return [];
    if (!e.dur || e.tdur === undefined || e.ts + e.dur <= fcp.ts) return [];
    const after = (e.ts + e.dur - Math.max(e.ts, fcp.ts)) / e.dur;
    return [{ wall: (e.dur * after) / 1000, cpu: (e.tdur * after) / 1000 }];
  });
  if (tasks.length === 0) return none;
  const blocking = (ms: (task: { wall: number; cpu: number }) => number) =>
    tasks.reduce((sum, task) => sum + Math.max(0, ms(task) * SLOWDOWN - LONG_TASK_MS), 0);
  const wall = tasks.reduce((sum, task) => sum + task.wall, 0);
  const cpu = tasks.reduce((sum, task) => sum + task.cpu, 0);
  return {
    wallBlocking: blocking((task) => task.wall),
    cpuBlocking: blocking((task) => task.cpu),
    waitRatio: cpu > 0 ? wall / cpu : NaN,
  };
}
