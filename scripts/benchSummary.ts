/**
 * The bench's summing up (`npm run bench`, scripts/bench.mjs): the performance guide's budgets
 * (the one place their texts and limits are written), medians over the runs that measured a
 * figure, which run did not and why, and the closing verdict.
 */

/** A budget of the performance guide: its text, printed beside the figure, and its limit. */
export type Budget = { readonly text: string; readonly within: (value: number) => boolean };

const atMost = (limit: number, text: string): Budget => ({
  text,
  within: (value) => Number.isFinite(value) && value <= limit,
});
const atLeast = (limit: number, text: string): Budget => ({
  text,
  within: (value) => Number.isFinite(value) && value >= limit,
});

/**
 * The guide's budgets (/work/shared/guides/performance.md, "Budgets"): ratios to the floor of the
 * same run, Lighthouse's scores, and the blocking time by the page's own CPU time in Lighthouse's
 * trace (its TBT on this host is mostly time spent waiting for a core, docs/performance.md).
 */
export const BUDGETS = {
  landingInView: atMost(1.4, '≤ 1.4× the floor'),
  firstTapAnswered: atMost(2.2, '≤ 2.2× the floor'),
  signedInHomeInView: atMost(2.2, '≤ 2.2× the floor'),
  performance: atLeast(98, '≥ 98'),
  accessibility: atLeast(100, '100'),
  bestPractices: atLeast(100, '100'),
  cpuBlocking: atMost(50, "≤ 50 ms (the page's own CPU time)"),
  cls: atMost(0.01, '≤ 0.01'),
} as const satisfies Record<string, Budget>;

/**
 * One run of a measurement: the figures it gave, and for each figure it could not give, why; or
 * the reason the whole run failed.
 */
export type Run =
  | {
      readonly figures: Readonly<Record<string, number>>;
      readonly gaps?: Readonly<Record<string, string>>;
    }
  | { readonly failed: string };

/** The median of the finite values; NaN when there are none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

export type Summary = {
  /** The median of the runs that measured the figure; NaN if none did. */
  readonly value: number;
  /** How many runs measured it, of how many. */
  readonly measured: number;
  readonly of: number;
  /** Each run without the figure: `run 3: …` (1-based), with the reason. */
  readonly missing: readonly string[];
};

/** The median of `key` over `runs`, naming each run that failed or lacked it. */
export function summarise(runs: readonly Run[], key: string): Summary {
  const values: number[] = [];
  const missing: string[] = [];
  runs.forEach((run, index) => {
    const label = `run ${index + 1}`;
    if ('failed' in run) {
      missing.push(`${label}: failed (${run.failed})`);
      return;
    }
    const value = run.figures[key];
    if (value !== undefined && Number.isFinite(value)) values.push(value);
    else missing.push(`${label}: no ${key} (${run.gaps?.[key] ?? 'not measured'})`);
  });
  return { value: median(values), measured: values.length, of: runs.length, missing };
}

/** The part of a Lighthouse report the bench reads (lighthouse's `LH.Result`). */
export type LighthouseReport = {
  readonly runtimeError?: { readonly code?: string; readonly message?: string };
  readonly categories: Readonly<Record<string, { readonly score: number | null } | undefined>>;
  readonly audits: Readonly<
    Record<string, { readonly numericValue?: number; readonly errorMessage?: string } | undefined>
  >;
  readonly environment?: { readonly benchmarkIndex?: number };
};

const CATEGORIES = {
  performance: 'performance',
  accessibility: 'accessibility',
  bestPractices: 'best-practices',
} as const;
const AUDITS = {
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
} as const;

/**
 * A Lighthouse report's figures (scores 0–100, LCP and TBT in ms, CLS, the host's CPU index), and
 * for each one it lacks the reason the report gives (a failed audit, a category without a score,
 * the run's own error).
 */
export function lighthouseFigures(report: LighthouseReport): {
  figures: Record<string, number>;
  gaps: Record<string, string>;
} {
  const figures: Record<string, number> = {};
  const gaps: Record<string, string> = {};
  const runError = report.runtimeError
    ? `${report.runtimeError.code ?? 'error'}: ${report.runtimeError.message ?? ''}`.trim()
    : undefined;
  for (const [key, id] of Object.entries(CATEGORIES)) {
    const score = report.categories[id]?.score;
    if (typeof score === 'number' && Number.isFinite(score)) figures[key] = Math.round(score * 100);
    else gaps[key] = runError ?? `the ${id} category has no score`;
  }
  for (const [key, id] of Object.entries(AUDITS)) {
    const audit = report.audits[id];
    const value = audit?.numericValue;
    if (typeof value === 'number' && Number.isFinite(value)) figures[key] = value;
    else gaps[key] = audit?.errorMessage ?? runError ?? `no ${id} audit in the report`;
  }
  const index = report.environment?.benchmarkIndex;
  if (typeof index === 'number' && Number.isFinite(index)) figures.benchmarkIndex = index;
  else gaps.benchmarkIndex = 'no CPU index in the report';
  return { figures, gaps };
}

/**
 * One run's line: `label value` for each figure it gave, then the figures it lacks grouped by
 * their reason (a Lighthouse run that failed to trace lacks them all for one reason).
 */
export function describeRun(
  run: Run,
  parts: readonly (readonly [label: string, key: string, format: (value: number) => string])[],
): string {
  if ('failed' in run) return `failed (${run.failed})`;
  const shown: string[] = [];
  const lacking = new Map<string, string[]>();
  for (const [label, key, format] of parts) {
    const value = run.figures[key];
    if (value !== undefined && Number.isFinite(value)) shown.push(`${label} ${format(value)}`);
    else {
      const reason = run.gaps?.[key] ?? 'not measured';
      lacking.set(reason, [...(lacking.get(reason) ?? []), label]);
    }
  }
  const gaps = [...lacking].map(([reason, labels]) => `no ${labels.join(', ')} (${reason})`);
  return [...shown, ...gaps].join(', ');
}

/** A figure held to a budget, as the closing lines name it. */
export type Judged = {
  readonly name: string;
  /** The figure as printed ("1.32×", "97"). */
  readonly shown: string;
  readonly value: number;
  readonly budget: Budget;
};

/** Whether a judged figure holds: NaN (nothing measured) never does. */
export const holds = (judged: Judged): boolean => judged.budget.within(judged.value);

/**
 * The closing line: every median within budget, or the figures over budget and those no run
 * measured, each with its budget.
 */
export function verdict(judged: readonly Judged[]): string {
  const over = judged.filter((j) => Number.isFinite(j.value) && !holds(j));
  const unmeasured = judged.filter((j) => !Number.isFinite(j.value));
  if (over.length === 0 && unmeasured.length === 0) return 'bench: every median within budget';
  const parts: string[] = [];
  if (over.length > 0)
    parts.push(
      `over budget: ${over.map((j) => `${j.name} ${j.shown} (budget ${j.budget.text})`).join('; ')}`,
    );
  if (unmeasured.length > 0)
    parts.push(
      `not measured: ${unmeasured.map((j) => `${j.name} (budget ${j.budget.text})`).join('; ')}`,
    );
  return `bench: ${parts.join('; ')}`;
}
