import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUDGETS,
  describeRun,
  lighthouseFigures,
  median,
  summarise,
  verdict,
  type Judged,
  type LighthouseReport,
  type Run,
} from '../../scripts/benchSummary';

/** A Lighthouse report with every figure the bench reads. */
const report = (overrides: Partial<LighthouseReport> = {}): LighthouseReport => ({
  categories: {
    performance: { score: 0.99 },
    accessibility: { score: 1 },
    'best-practices': { score: 1 },
  },
  audits: {
    'largest-contentful-paint': { numericValue: 1671 },
    'total-blocking-time': { numericValue: 68 },
    'cumulative-layout-shift': { numericValue: 0 },
  },
  environment: { benchmarkIndex: 2100 },
  ...overrides,
});

describe("the bench's medians", () => {
  it('are the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('leave out the runs without a figure, and are NaN when no run has one', () => {
    expect(median([NaN, 5, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
    expect(median([NaN])).toBeNaN();
  });

  it('name each run that failed or lacked the figure, and why, beside the median of the others', () => {
    const runs: Run[] = [
      { figures: { cls: 0.002 } },
      { failed: 'Chrome could not start' },
      { figures: {}, gaps: { cls: 'the audit failed' } },
      { figures: { cls: 0 } },
      { figures: { cls: 0.004 } },
    ];
    const summary = summarise(runs, 'cls');
    expect(summary.value).toBe(0.002);
    expect(summary.measured).toBe(3);
    expect(summary.of).toBe(5);
    expect(summary.missing).toEqual([
      'run 2: failed (Chrome could not start)',
      'run 3: no cls (the audit failed)',
    ]);
  });
});

describe("a Lighthouse report's figures", () => {
  it('are the scores out of 100, the metrics and the CPU index', () => {
    const { figures, gaps } = lighthouseFigures(report());
    expect(figures).toEqual({
      performance: 99,
      accessibility: 100,
      bestPractices: 100,
      lcp: 1671,
      tbt: 68,
      cls: 0,
      benchmarkIndex: 2100,
    });
    expect(gaps).toEqual({});
  });

  it('of a run without CLS keep every other figure, and say why CLS is missing', () => {
    const { figures, gaps } = lighthouseFigures(
      report({
        audits: {
          'largest-contentful-paint': { numericValue: 1500 },
          'total-blocking-time': { numericValue: 40 },
          'cumulative-layout-shift': { errorMessage: 'NO_LCP' },
        },
        categories: {
          performance: { score: null },
          accessibility: { score: 1 },
          'best-practices': { score: 1 },
        },
      }),
    );
    expect(figures.cls).toBeUndefined();
    expect(figures.lcp).toBe(1500);
    expect(figures.accessibility).toBe(100);
    expect(gaps.cls).toBe('NO_LCP');
    expect(gaps.performance).toBe('the performance category has no score');
    // Printed per run without throwing.
    expect(
      describeRun({ figures, gaps }, [
        ['LCP', 'lcp', (v) => `${v} ms`],
        ['CLS', 'cls', (v) => v.toFixed(3)],
      ]),
    ).toBe('LCP 1500 ms, no CLS (NO_LCP)');
  });

  it("of a run that Lighthouse ended with an error name the run's error", () => {
    const { figures, gaps } = lighthouseFigures({
      runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' },
      categories: {},
      audits: {},
    });
    expect(figures).toEqual({});
    expect(gaps.cls).toBe('NO_FCP: The page did not paint any content.');
    expect(gaps.performance).toBe('NO_FCP: The page did not paint any content.');
    expect(gaps.benchmarkIndex).toBe('no CPU index in the report');
  });

  it('of a run that failed are printed as failed, with the reason', () => {
    expect(describeRun({ failed: 'timeout' }, [['CLS', 'cls', String]])).toBe('failed (timeout)');
  });

  it('lacking for one reason are named together', () => {
    const { figures, gaps } = lighthouseFigures({
      runtimeError: { code: 'NO_NAVSTART', message: 'no trace' },
      categories: {},
      audits: {},
      environment: { benchmarkIndex: 1396 },
    });
    expect(
      describeRun({ figures, gaps }, [
        ['perf', 'performance', String],
        ['LCP', 'lcp', String],
        ['CPU index', 'benchmarkIndex', String],
      ]),
    ).toBe('CPU index 1396, no perf, LCP (NO_NAVSTART: no trace)');
  });
});

describe("the bench's budgets", () => {
  it("are the performance guide's", () => {
    expect(BUDGETS.landingInView.text).toBe('≤ 1.4× the floor');
    expect(BUDGETS.landingInView.within(1.4)).toBe(true);
    expect(BUDGETS.landingInView.within(1.41)).toBe(false);
    expect(BUDGETS.firstTapAnswered.text).toBe('≤ 2.2× the floor');
    expect(BUDGETS.firstTapAnswered.within(2.2)).toBe(true);
    expect(BUDGETS.firstTapAnswered.within(2.21)).toBe(false);
    expect(BUDGETS.signedInHomeInView.within(2.2)).toBe(true);
    expect(BUDGETS.signedInHomeInView.within(2.25)).toBe(false);
    expect(BUDGETS.performance.within(98)).toBe(true);
    expect(BUDGETS.performance.within(97)).toBe(false);
    expect(BUDGETS.cpuBlocking.within(50)).toBe(true);
    expect(BUDGETS.cpuBlocking.within(51)).toBe(false);
    expect(BUDGETS.cls.within(0.01)).toBe(true);
    expect(BUDGETS.cls.within(0.011)).toBe(false);
  });

  it('never hold for a figure no run measured', () => {
    for (const budget of Object.values(BUDGETS)) expect(budget.within(NaN)).toBe(false);
  });

  it('are written in one place: the bench prints no budget text of its own', () => {
    const bench = readFileSync(resolve(import.meta.dirname, '../../scripts/bench.mjs'), 'utf8');
    expect(bench).not.toMatch(/['"`]\s*[≤≥]/);
    expect(bench).toContain('BUDGETS.landingInView');
    expect(bench).toContain('BUDGETS.firstTapAnswered');
    expect(bench).toContain('BUDGETS.signedInHomeInView');
  });
});

describe("the bench's closing line", () => {
  const judged = (name: string, value: number, budget = BUDGETS.landingInView): Judged => ({
    name,
    shown: Number.isFinite(value) ? `${value.toFixed(2)}×` : 'never',
    value,
    budget,
  });

  it('says every median is within budget when each holds', () => {
    expect(
      verdict([judged('/ in view', 1.3), judged('first tap', 2.1, BUDGETS.firstTapAnswered)]),
    ).toBe('bench: every median within budget');
  });

  it('names the figures over budget, with their budgets', () => {
    expect(
      verdict([
        judged('/ in view', 1.45),
        judged('first tap answered', 2.78, BUDGETS.firstTapAnswered),
        judged('signed-in home in view', 2.0, BUDGETS.signedInHomeInView),
      ]),
    ).toBe(
      'bench: over budget: / in view 1.45× (budget ≤ 1.4× the floor); ' +
        'first tap answered 2.78× (budget ≤ 2.2× the floor)',
    );
  });

  it('names the figures no run measured, never calling them within budget', () => {
    expect(verdict([judged('/ in view', 1.3), judged('/ Lighthouse CLS', NaN, BUDGETS.cls)])).toBe(
      'bench: not measured: / Lighthouse CLS (budget ≤ 0.01)',
    );
  });
});
