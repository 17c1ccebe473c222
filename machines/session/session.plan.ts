import type { AnyStateMachine, AnyStateNode } from 'xstate';

/**
 * The session bootstrap's order as data, read from the session chart itself (§4 Session): for
 * each step, the call it invokes and where its answer or its failure leads, with the guard that
 * picks the branch. The page's head walks it with the browser's fetch before the app's code has
 * arrived (src/app/bootInline.ts; the build writes it into the head script,
 * src/prerender/prerenderPlugin.ts), so the chart is the one place that decides the order.
 */
export type PlanBranch = { guard: string | null; to: string };
export type PlanStep = { call: string; done: PlanBranch[]; error: PlanBranch[] };
export type SessionPlan = {
  initial: string;
  /** The step that tells the app the session has loaded. */
  loaded: string;
  steps: Record<string, PlanStep>;
};

const guardName = (guard: unknown): string | null => {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  const type = (guard as { type?: unknown }).type;
  return typeof type === 'string' ? type : '?';
};

const branchesOf = (node: AnyStateNode, eventType: string): PlanBranch[] =>
  (node.transitions.get(eventType) ?? []).map((t) => ({
    guard: guardName(t.guard),
    to: t.target?.[0]?.key ?? node.key,
  }));

const entryTypes = (node: AnyStateNode): string[] =>
  node.entry.map((a) => (typeof a === 'string' ? a : ((a as { type?: string }).type ?? '')));

/** The plan of a bootstrap chart: flat states, each invoking at most one call. */
export function sessionPlan(machine: AnyStateMachine, reportLoaded = 'reportLoaded'): SessionPlan {
  const steps: Record<string, PlanStep> = {};
  let loaded = '';
  for (const node of Object.values(machine.root.states)) {
    const [invoke] = node.invoke;
    if (invoke) {
      const src = typeof invoke.src === 'string' ? invoke.src : invoke.id;
      steps[node.key] = {
        call: src,
        done: branchesOf(node, `xstate.done.actor.${invoke.id}`),
        error: branchesOf(node, `xstate.error.actor.${invoke.id}`),
      };
    }
    if (entryTypes(node).includes(reportLoaded)) loaded = node.key;
  }
  const initial = machine.root.initial?.target[0]?.key ?? '';
  return { initial, loaded, steps };
}
