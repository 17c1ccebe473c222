import type { AnyEventObject, AnyMachineSnapshot, InspectionEvent } from 'xstate';
import { plainValue, recordSnapshot, type RecordedSnapshot } from './recording';

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
  /** Set for an actor of the app running in another tab (fed over a BroadcastChannel). */
  tab?: string;
  /** When this actor last changed (ms): the actor the developer drove last is selected first. */
  updatedAt?: number;
};

export type LiveEvent = {
  at: number;
  /** The actor that took the event (the receiver). */
  actor: string;
  /**
   * The actor that sent it (a parent, a child, a service reaching another through the system);
   * absent when it came from outside every actor: the page (a view, a browser listener).
   */
  from?: string;
  type: string;
  event: AnyEventObject;
  /** The developer sent it from the visualiser (sendToLive). */
  fromVisualiser?: boolean;
};

/**
 * A transition an actor took: its state node, its event (`''` for an eventless one) and its place
 * in that node's list for the event. The guards before it did not hold and its own did: the
 * site's answers, which a replay without the app needs for the guards the app provides.
 */
export type TakenTransition = { source: string; event: string; index: number };

/** An event a live machine actor took, when, the snapshot it led to and the transitions taken. */
type LiveStep = {
  at: number;
  event: AnyEventObject;
  snapshot: RecordedSnapshot;
  taken?: TakenTransition[];
};

/**
 * What a live machine actor did since it started, as "Save as test" needs it: its input, its
 * first snapshot and its first MAX_STEPS steps (a recording always starts at the start; later
 * steps are counted in `dropped`).
 */
export type LiveHistory = {
  input: unknown;
  startedAt: number;
  initial: RecordedSnapshot;
  steps: LiveStep[];
  dropped: number;
};

export type InspectorStore = {
  actors: Map<string, LiveActor>;
  /** This tab's actors themselves, to send them what the visualiser sends (never shared). */
  refs: Map<string, { send: (event: AnyEventObject) => void }>;
  /** Per live machine actor (same keys as `actors`). */
  histories: Map<string, LiveHistory>;
  events: LiveEvent[];
  listeners: Set<() => void>;
  version: number;
};

const STORE_KEY = 'smw-devtools-inspector';
const MAX_EVENTS = 200;
const MAX_STEPS = 300;

type ActorLike = {
  sessionId?: string;
  id?: string;
  systemId?: string;
  src?: unknown;
  logic?: { id?: unknown };
  getSnapshot?: () => unknown;
  options?: { input?: unknown };
};

export function inspectorStore(): InspectorStore {
  const holder = globalThis as unknown as Record<string, InspectorStore | undefined>;
  let store = holder[STORE_KEY];
  if (!store) {
    store = {
      actors: new Map(),
      refs: new Map(),
      histories: new Map(),
      events: [],
      listeners: new Set(),
      version: 0,
    };
    holder[STORE_KEY] = store;
  }
  return store;
}

/**
 * An actor as the log names it: its systemId, else its id; an id XState made up (`x:3` for a
 * spawned actor, `0.auth` for an invoke without one) gives way to what the actor runs.
 */
function actorName(ref: ActorLike): string {
  if (ref.systemId) return ref.systemId;
  const id = ref.id ?? ref.sessionId ?? '?';
  if (!/^x:\d+$/.test(id) && !/^\d+\./.test(id)) return id;
  if (typeof ref.src === 'string' && !ref.src.startsWith('xstate.')) return ref.src;
  if (typeof ref.logic?.id === 'string') return ref.logic.id;
  return id;
}

function record(store: InspectorStore, ref: ActorLike, snapshot: unknown): LiveActor {
  const sessionId = ref.sessionId ?? ref.id ?? '?';
  const snap = (snapshot ?? {}) as {
    status?: string;
    value?: unknown;
    context?: unknown;
    machine?: { id?: string };
  };
  const actor: LiveActor = {
    sessionId,
    id: ref.id ?? sessionId,
    systemId: ref.systemId,
    machineId: snap.machine?.id,
    status: snap.status ?? 'active',
    value: snap.value,
    context: snap.context,
    updatedAt: Date.now(),
  };
  store.actors.set(sessionId, actor);
  return actor;
}

function notify(store: InspectorStore): void {
  store.version += 1;
  for (const listener of store.listeners) listener();
}

// Other tabs: each tab's app posts what it records on a BroadcastChannel, and an open visualiser
// (in any tab of the same origin) shows those actors too, so a developer clicks through the site
// in one tab and watches the charts in another. Snapshots go through JSON (functions dropped).
// A visualiser opened after the site asks (`hello`), and every open tab answers with its actors'
// current snapshots, so it shows the live state at once instead of waiting for the next change.
const CHANNEL = 'smw-devtools-inspector';
let tab: string | undefined;
const tabId = (): string => (tab ??= Math.random().toString(36).slice(2, 10));
type Wire = { tab: string } & (
  | { kind: 'actor'; actor: LiveActor }
  | { kind: 'event'; event: LiveEvent }
  | { kind: 'history'; sessionId: string; history: LiveHistory }
  | { kind: 'step'; sessionId: string; step: LiveStep }
  | { kind: 'hello' }
  | { kind: 'send'; to: string; sessionId: string; event: AnyEventObject }
);
let channel: BroadcastChannel | null | undefined;

function openChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    if (channel) {
      channel.onmessage = (message: MessageEvent<Wire>) => {
        answerHello(message.data);
        takeSent(message.data);
      };
      // This tab holds a lock of its own for as long as it lives: a visualiser forgets its actors
      // once the lock is gone (the tab closed, navigated away or crashed).
      void globalThis.navigator?.locks?.request(
        `${CHANNEL}:${tabId()}`,
        () => new Promise<void>(() => {}),
      );
    }
  }
  return channel;
}

function broadcast(message: Wire): void {
  try {
    openChannel()?.postMessage(JSON.parse(JSON.stringify(message)) as Wire);
  } catch {
    // A snapshot that JSON cannot carry is simply not shared.
  }
}

/** A visualiser that just opened asks: this tab's app answers with its actors as they are now. */
function answerHello(wire: Wire | undefined): void {
  if (wire?.kind !== 'hello') return;
  const store = inspectorStore();
  for (const actor of store.actors.values()) {
    if (actor.tab) continue;
    broadcast({ tab: tabId(), kind: 'actor', actor });
    const history = store.histories.get(actor.sessionId);
    if (history) broadcast({ tab: tabId(), kind: 'history', sessionId: actor.sessionId, history });
  }
}

/** The event being sent from a visualiser to one of this tab's actors, while it is sent. */
let sending: AnyEventObject | null = null;

/** A visualiser sends an event to one of this tab's actors: the actor takes it like every other event. */
function takeSent(wire: Wire | undefined): void {
  if (wire?.kind !== 'send' || wire.to !== tabId()) return;
  deliver(wire.sessionId, wire.event);
}

function deliver(sessionId: string, event: AnyEventObject): void {
  const ref = inspectorStore().refs.get(sessionId);
  if (!ref) return;
  sending = event;
  try {
    ref.send(event);
  } finally {
    sending = null;
  }
}

/**
 * Sends `event` to a live actor, of this tab or of the site in another tab (over the channel):
 * the actor takes it as it takes the site's own events, so it is logged and its step recorded
 * like any other, marked as sent from the visualiser in the log.
 */
export function sendToLive(actor: LiveActor, event: AnyEventObject): void {
  const plain = JSON.parse(JSON.stringify(event)) as AnyEventObject;
  if (!actor.tab) {
    deliver(actor.sessionId, plain);
    return;
  }
  const sessionId = actor.sessionId.slice(actor.tab.length + 1);
  broadcast({ tab: tabId(), kind: 'send', to: actor.tab, sessionId, event: plain });
}

const GONE_TABS_EVERY_MS = 1000;

/** Drops the actors of the tabs whose lock is gone (closed, navigated away, crashed). */
async function forgetGoneTabs(): Promise<void> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return;
  const { held = [], pending = [] } = await locks.query();
  const alive = new Set([...held, ...pending].map((lock) => lock.name));
  const store = inspectorStore();
  const gone = [...store.actors.entries()].filter(
    ([, actor]) => actor.tab && !alive.has(`${CHANNEL}:${actor.tab}`),
  );
  if (gone.length === 0) return;
  for (const [key] of gone) {
    store.actors.delete(key);
    store.histories.delete(key);
  }
  notify(store);
}

/** Shows the actors of the apps running in other tabs; returns the unsubscribe. */
export function listenToOtherTabs(): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const listener = new BroadcastChannel(CHANNEL);
  listener.onmessage = (message: MessageEvent<Wire>) => {
    const wire = message.data;
    if (!wire || wire.tab === tabId()) return;
    const store = inspectorStore();
    if (wire.kind === 'actor') {
      const sessionId = `${wire.tab}:${wire.actor.sessionId}`;
      store.actors.set(sessionId, { ...wire.actor, sessionId, tab: wire.tab });
    } else if (wire.kind === 'event') {
      store.events.unshift({
        ...wire.event,
        actor: `${wire.event.actor} (other tab)`,
      });
      store.events.length = Math.min(store.events.length, MAX_EVENTS);
    } else if (wire.kind === 'history') {
      store.histories.set(`${wire.tab}:${wire.sessionId}`, wire.history);
    } else if (wire.kind === 'step') {
      // Steps of an actor whose start this visualiser missed wait for its history (hello).
      const history = store.histories.get(`${wire.tab}:${wire.sessionId}`);
      if (history) addStep(history, wire.step);
    }
    notify(store);
  };
  // Tabs opened before this visualiser answer with their actors' current snapshots.
  listener.postMessage({ tab: tabId(), kind: 'hello' } satisfies Wire);
  const sweep = setInterval(() => void forgetGoneTabs(), GONE_TABS_EVERY_MS);
  return () => {
    clearInterval(sweep);
    listener.close();
  };
}

/** The `inspect` observer for the root actor (src/app/appActor.ts). */
export function devInspect(event: InspectionEvent): void {
  const store = inspectorStore();
  const ref = event.actorRef as ActorLike;
  if (event.type === '@xstate.actor' || event.type === '@xstate.snapshot') {
    const snapshot = event.type === '@xstate.actor' ? snapshotOf(ref) : event.snapshot;
    const actor = record(store, ref, snapshot);
    if (event.type === '@xstate.actor' && typeof event.actorRef.send === 'function') {
      store.refs.set(actor.sessionId, event.actorRef);
    }
    broadcast({ tab: tabId(), kind: 'actor', actor });
    if (event.type === '@xstate.snapshot') trackStep(store, actor.sessionId, event.event, snapshot);
  } else if (event.type === '@xstate.microstep') {
    noteTaken(ref.sessionId, event._transitions);
    return;
  } else if (event.type === '@xstate.event') {
    // The actor starts (its first snapshot is the one it was created with).
    if (event.event.type === 'xstate.init')
      startHistory(store, ref.sessionId, ref, snapshotOf(ref));
    const from = event.sourceRef as ActorLike | undefined;
    const live: LiveEvent = {
      at: Date.now(),
      actor: actorName(ref),
      ...(from ? { from: actorName(from) } : {}),
      type: event.event.type,
      event: event.event,
      ...(sending !== null && event.event === sending ? { fromVisualiser: true } : {}),
    };
    store.events.unshift(live);
    store.events.length = Math.min(store.events.length, MAX_EVENTS);
    broadcast({ tab: tabId(), kind: 'event', event: live });
  } else {
    return;
  }
  notify(store);
}

/** The transitions of the macrostep an actor is taking, until its snapshot closes the step. */
const takenNow = new Map<string, TakenTransition[]>();

type TransitionLike = {
  eventType?: string;
  source?: { id?: string; always?: unknown[]; transitions?: Map<string, unknown[]> };
};

function noteTaken(sessionId: string | undefined, transitions: readonly unknown[]): void {
  if (!sessionId) return;
  const list = takenNow.get(sessionId) ?? [];
  for (const t of transitions as TransitionLike[]) {
    const source = t.source;
    const event = t.eventType ?? '';
    const candidates = event === '' ? source?.always : source?.transitions?.get(event);
    const index = candidates?.indexOf(t) ?? -1;
    if (source?.id && index >= 0) list.push({ source: source.id, event, index });
  }
  takenNow.set(sessionId, list);
}

/** An actor's snapshot, or undefined while it cannot be read (as the actor initialises itself). */
function snapshotOf(ref: ActorLike): unknown {
  try {
    return ref.getSnapshot?.();
  } catch {
    return undefined;
  }
}

function isMachineSnapshot(snapshot: unknown): snapshot is AnyMachineSnapshot {
  return (
    typeof snapshot === 'object' &&
    snapshot !== null &&
    'value' in snapshot &&
    'context' in snapshot &&
    'machine' in snapshot
  );
}

/** A machine actor started: its history begins with its input and first snapshot. */
function startHistory(
  store: InspectorStore,
  sessionId: string | undefined,
  ref: ActorLike,
  snapshot: unknown,
): void {
  if (!sessionId || !isMachineSnapshot(snapshot)) return;
  const history: LiveHistory = {
    input: plainValue(ref.options?.input),
    startedAt: Date.now(),
    initial: recordSnapshot(snapshot),
    steps: [],
    dropped: 0,
  };
  store.histories.set(sessionId, history);
  broadcast({ tab: tabId(), kind: 'history', sessionId, history });
}

/** An event a live machine actor took: one more step of its history. */
function trackStep(
  store: InspectorStore,
  sessionId: string,
  event: AnyEventObject,
  snapshot: unknown,
): void {
  const history = store.histories.get(sessionId);
  const taken = takenNow.get(sessionId) ?? [];
  takenNow.delete(sessionId);
  if (!history || !isMachineSnapshot(snapshot)) return;
  // The start is the history's first snapshot; a stop is no step a replay takes.
  if (event.type === 'xstate.init' || event.type === 'xstate.stop') return;
  const step: LiveStep = {
    at: Date.now(),
    event: plainValue(event) as AnyEventObject,
    snapshot: recordSnapshot(snapshot),
    ...(taken.length > 0 ? { taken } : {}),
  };
  addStep(history, step);
  broadcast({ tab: tabId(), kind: 'step', sessionId, step });
}

function addStep(history: LiveHistory, step: LiveStep): void {
  if (history.steps.length < MAX_STEPS) history.steps.push(step);
  else history.dropped += 1;
}

export function subscribeInspector(listener: () => void): () => void {
  const store = inspectorStore();
  store.listeners.add(listener);
  return () => store.listeners.delete(listener);
}

export function inspectorVersion(): number {
  return inspectorStore().version;
}
