import {
  createActor,
  fromPromise,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate';
import type { Chart } from './graph';

/**
 * A fresh actor of one machine for trying it by hand: every invoked or spawned actor is replaced
 * by one that never settles (its outcome is sent with the `<id> done` / `<id> error` buttons),
 * and delays can be skipped with their `after <delay>` buttons.
 */
export function startSandbox(machine: AnyStateMachine, input: unknown): AnyActorRef {
  const names = Object.keys(machine.implementations.actors ?? {});
  const standIns = Object.fromEntries(
    names.map((name) => [name, fromPromise(() => new Promise<never>(() => {}))]),
  );
  const actor = createActor(machine.provide({ actors: standIns } as never), { input });
  actor.start();
  return actor;
}

/** The event types the chart names (intents, facts, actor outcomes, delays), once each. */
export function chartEvents(chart: Chart): string[] {
  return [
    ...new Set(
      chart.edges.filter((e) => e.kind !== 'always' && e.kind !== 'wildcard').map((e) => e.event),
    ),
  ];
}

export function sandboxEvent(type: string, payload: Record<string, unknown>): AnyEventObject {
  const actorId = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type)?.[1];
  return { ...payload, type, ...(actorId ? { actorId } : {}) };
}

export function canTake(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  try {
    return snapshot.status === 'active' && snapshot.can(event);
  } catch {
    return false;
  }
}

/** Ids of the active state nodes of a snapshot value, resolved through the chart's keys. */
export function activeNodeIds(chart: Chart, value: unknown): Set<string> {
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const active = new Set<string>();
  const walk = (nodeId: string, v: unknown) => {
    active.add(nodeId);
    const node = byId.get(nodeId);
    if (!node) return;
    const childByKey = (key: string) =>
      node.children.map((id) => byId.get(id)).find((c) => c?.key === key);
    if (typeof v === 'string') {
      const child = childByKey(v);
      if (child) active.add(child.id);
    } else if (v && typeof v === 'object') {
      for (const [key, sub] of Object.entries(v)) {
        const child = childByKey(key);
        if (child) walk(child.id, sub);
      }
    }
  };
  walk(chart.root, value);
  return active;
}

/** JSON of a context for display: actor refs by id, cycles cut, long output trimmed. */
export function showValue(value: unknown): string {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (v && typeof v === 'object') {
        if ('sessionId' in v && 'send' in v) return `[actor ${String((v as { id?: string }).id)}]`;
        if (seen.has(v)) return '[cycle]';
        seen.add(v);
      }
      if (typeof v === 'function') return '[function]';
      return v;
    },
    2,
  );
  return (text ?? String(value)).slice(0, 4000);
}
