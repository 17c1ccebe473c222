import { useEffect, useMemo, useState } from 'react';
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { ChartView } from './ChartView';
import { machineToChart, type Chart } from './graph';
import type { LiveActor } from './inspector';
import type { MachineEntry } from './registry';
import {
  activeNodeIds,
  canTake,
  chartEvents,
  sandboxEvent,
  showValue,
  startSandbox,
} from './sandbox';

type Loaded = { machine: AnyStateMachine; chart: Chart };

/** One machine: its chart, the live actors running it, and a sandbox actor on demand. */
export function MachineSection({ entry, live }: { entry: MachineEntry; live: LiveActor[] }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<AnyActorRef | null>(null);
  const [snapshot, setSnapshot] = useState<AnyMachineSnapshot | null>(null);
  const [input, setInput] = useState('{}');
  const [payload, setPayload] = useState('{}');
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    let cancelled = false;
    entry.load().then(
      (machine) => {
        if (!cancelled) setLoaded({ machine, chart: machineToChart(machine) });
      },
      (e: unknown) => {
        if (!cancelled) setError(String(e));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [entry]);

  useEffect(() => {
    if (!sandbox) return undefined;
    setSnapshot(sandbox.getSnapshot() as AnyMachineSnapshot);
    const sub = sandbox.subscribe({
      next: (s) => setSnapshot(s as AnyMachineSnapshot),
      error: () => setSnapshot(sandbox.getSnapshot() as AnyMachineSnapshot),
    });
    return () => {
      sub.unsubscribe();
      sandbox.stop();
    };
  }, [sandbox]);

  const liveActor = live[Math.min(selected, live.length - 1)];
  const value = sandbox ? snapshot?.value : liveActor?.value;
  const active = useMemo(
    () => (loaded && value !== undefined ? activeNodeIds(loaded.chart, value) : new Set<string>()),
    [loaded, value],
  );

  const parse = (text: string): Record<string, unknown> | null => {
    try {
      const v: unknown = JSON.parse(text || '{}');
      return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };

  const start = () => {
    if (!loaded) return;
    try {
      setError(null);
      setSandbox(startSandbox(loaded.machine, parse(input) ?? {}));
    } catch (e) {
      setError(`Sandbox did not start: ${String(e)}`);
    }
  };

  return (
    <section className="devtools-machine" id={`machine-${entry.name}`} data-machine={entry.name}>
      <header>
        <h2>{entry.name}</h2>
        <span className="devtools-muted">
          {loaded
            ? `${loaded.chart.nodes.length - 1} states, ${loaded.chart.edges.length} transitions`
            : ''}
        </span>
        {live.length > 0 ? (
          <span className="devtools-live">
            live:{' '}
            {live.map((a, i) => (
              <button
                key={a.sessionId}
                type="button"
                aria-pressed={i === selected && !sandbox}
                onClick={() => {
                  setSelected(i);
                  setSandbox(null);
                }}
              >
                {a.systemId ?? a.id}
                {a.tab ? ' (other tab)' : ''}
              </button>
            ))}
          </span>
        ) : null}
        {sandbox ? (
          <button type="button" onClick={() => setSandbox(null)}>
            Stop sandbox
          </button>
        ) : (
          <button type="button" onClick={start} disabled={!loaded}>
            Sandbox
          </button>
        )}
      </header>
      {error ? <p className="devtools-error">{error}</p> : null}
      {!sandbox ? (
        <label className="devtools-field">
          Sandbox input (JSON){' '}
          <input value={input} onChange={(e) => setInput(e.target.value)} spellCheck={false} />
        </label>
      ) : null}
      {loaded ? (
        <ChartView chart={loaded.chart} active={active} />
      ) : (
        <p className="devtools-muted">Loading…</p>
      )}
      {sandbox && snapshot && loaded ? (
        <div className="devtools-sandbox" data-sandbox={entry.name}>
          <p>
            Sandbox state: <code data-testid="sandbox-state">{JSON.stringify(snapshot.value)}</code>{' '}
            ({snapshot.status})
          </p>
          <label className="devtools-field">
            Event payload (JSON){' '}
            <input
              value={payload}
              onChange={(e) => setPayload(e.target.value)}
              spellCheck={false}
            />
          </label>
          <div className="devtools-events">
            {chartEvents(loaded.chart)
              .map((type) => ({ type, event: sandboxEvent(type, parse(payload) ?? {}) }))
              .filter(({ event }) => canTake(snapshot, event))
              .map(({ type, event }) => (
                <button key={type} type="button" onClick={() => sandbox.send(event)}>
                  {type}
                </button>
              ))}
          </div>
          <pre className="devtools-context">{showValue(snapshot.context)}</pre>
        </div>
      ) : liveActor ? (
        <details className="devtools-livectx">
          <summary>
            {liveActor.systemId ?? liveActor.id}: <code>{JSON.stringify(liveActor.value)}</code> (
            {liveActor.status})
          </summary>
          <pre className="devtools-context">{showValue(liveActor.context)}</pre>
        </details>
      ) : null}
    </section>
  );
}
