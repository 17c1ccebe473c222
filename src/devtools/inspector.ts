import type { AnyEventObject, InspectionEvent } from 'xstate';

/**
 * Development-only inspection of the live app: pass `devInspect` as the root actor's `inspect`
 * option (src/main.tsx, guarded by `import.meta.env.MODE !== 'production'`). It keeps, per live
 * actor, the latest snapshot, and the last events, in one store on globalThis that the machine
 * visualiser (/__machines) reads. No side effects at import, so a production build drops it.
 */
export type LiveActor = {
  sessionId: string;
  id: string;
  systemId: string | undefined;
  /** Id of the machine the actor runs (absent for promise / callback actors). */
  machineId: string | undefined;
  status: string;
  value: unknown;
  context: unknown;
};

export type LiveEvent = { at: number; actor: string; type: string; event: AnyEventObject };

export type InspectorStore = {
  actors: Map<string, LiveActor>;
  events: LiveEvent[];
  listeners: Set<() => void>;
  version: number;
};

const STORE_KEY = 'smw-devtools-inspector';
const MAX_EVENTS = 50;

type ActorLike = {
  sessionId?: string;
  id?: string;
  systemId?: string;
  getSnapshot?: () => unknown;
};

export function inspectorStore(): InspectorStore {
  const holder = globalThis as unknown as Record<string, InspectorStore | undefined>;
  let store = holder[STORE_KEY];
  if (!store) {
    store = { actors: new Map(), events: [], listeners: new Set(), version: 0 };
    holder[STORE_KEY] = store;
  }
  return store;
}

function record(store: InspectorStore, ref: ActorLike, snapshot: unknown): void {
  const sessionId = ref.sessionId ?? ref.id ?? '?';
  const snap = (snapshot ?? {}) as {
    status?: string;
    value?: unknown;
    context?: unknown;
    machine?: { id?: string };
  };
  store.actors.set(sessionId, {
    sessionId,
    id: ref.id ?? sessionId,
    systemId: ref.systemId,
    machineId: snap.machine?.id,
    status: snap.status ?? 'active',
    value: snap.value,
    context: snap.context,
  });
}

function notify(store: InspectorStore): void {
  store.version += 1;
  for (const listener of store.listeners) listener();
}

/** The `inspect` observer for createActor / the AppProvider. */
export function devInspect(event: InspectionEvent): void {
  const store = inspectorStore();
  const ref = event.actorRef as ActorLike;
  if (event.type === '@xstate.actor') {
    record(store, ref, ref.getSnapshot?.());
  } else if (event.type === '@xstate.snapshot') {
    record(store, ref, event.snapshot);
  } else if (event.type === '@xstate.event') {
    store.events.unshift({
      at: Date.now(),
      actor: ref.systemId ?? ref.id ?? '?',
      type: event.event.type,
      event: event.event,
    });
    store.events.length = Math.min(store.events.length, MAX_EVENTS);
  } else {
    return;
  }
  notify(store);
}

export function subscribeInspector(listener: () => void): () => void {
  const store = inspectorStore();
  store.listeners.add(listener);
  return () => store.listeners.delete(listener);
}

export function inspectorVersion(): number {
  return inspectorStore().version;
}
