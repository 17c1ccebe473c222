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
  args?: { data?: { documentLoaderURL?: string } };
};

export type MainThreadFigures = {
  /** Lighthouse's blocking rule on the tasks' wall time, ms. */
  wallBlocking: number;
  /** The same rule on the thread's CPU time within each task, ms. */
  cpuBlocking: number;
  /** The tasks' wall time over their CPU time: how long the thread waited for a core. */
  waitRatio: number;
};

/** Lighthouse's mobile profile runs the page 4× slower; a task blocks for its time over 50 ms. */
const SLOWDOWN = 4;
const LONG_TASK_MS = 50;

/**
 * The page's main thread in Lighthouse's own trace (`npm run bench`), from the first contentful
 * paint on: its tasks' wall time against the thread's CPU time inside them, and Lighthouse's
 * blocking rule (each task 4× as long, counted for its time over 50 ms) applied to each. On a
 * small machine the page's thread waits for a core while the trace's screenshot of every frame and
 * Chromium's software compositor run: the wall figure carries that wait, the CPU figure is the
 * page's own work. An estimate beside Lighthouse's TBT (which simulates a graph of its own), not a
 * replacement for it. NaN figures when the trace has no page navigation, first paint or tasks.
 */
export function mainThreadFigures(events: readonly TraceEvent[] | undefined): MainThreadFigures {
  const none = { wallBlocking: NaN, cpuBlocking: NaN, waitRatio: NaN };
  if (!events) return none;
  const nav = events
    .filter(
      (e) =>
        e.name === 'navigationStart' &&
        /^https?:/.test(String(e.args?.data?.documentLoaderURL ?? '')),
    )
    .at(-1);
  if (!nav) return none;
  const fcp = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.pid === nav.pid && e.ts >= nav.ts,
  );
  if (!fcp) return none;
  const tasks = events.flatMap((e) =>
    e.ph === 'X' &&
    e.name === 'RunTask' &&
    e.pid === nav.pid &&
    e.tid === nav.tid &&
    e.ts >= fcp.ts &&
    e.dur !== undefined &&
    e.tdur !== undefined
      ? [{ wall: e.dur / 1000, cpu: e.tdur / 1000 }]
      : [],
  );
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
