import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { AnyStateMachine } from 'xstate';
import { ChartView } from './ChartView';
import { describeEvent, machineToChart, type Chart } from './graph';
import { inspectorStore, type LiveActor } from './inspector';
import type { MachineEntry } from './registry';
import { describeStep, recordingFileName, recordingToTestFile, type Recording } from './recording';
import {
  activeNodeIds,
  canTake,
  chartEvents,
  recordingFromLive,
  SandboxSession,
  sandboxEvent,
  showValue,
} from './sandbox';

type Loaded = { machine: AnyStateMachine; chart: Chart };

/** One machine: its chart, the live actors running it, and a sandbox actor on demand. */
export function MachineSection({ entry, live }: { entry: MachineEntry; live: LiveActor[] }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<SandboxSession | null>(null);
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

  useEffect(() => (sandbox ? () => sandbox.stop() : undefined), [sandbox]);
  // Each step of the sandbox (and each jump of time travel) renders it anew.
  const sandboxStep = useSyncExternalStore(
    (listener) => sandbox?.subscribe(listener) ?? (() => {}),
    () => (sandbox ? `${sandbox.position}/${sandbox.steps.length}` : ''),
  );
  const snapshot = useMemo(
    () => (sandboxStep ? sandbox?.snapshot() : undefined),
    [sandbox, sandboxStep],
  );

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
      setSandbox(new SandboxSession(entry.name, loaded.machine, parse(input) ?? {}));
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
              .map(({ type, event }) => {
                const { delay } = describeEvent(type);
                return (
                  <button
                    key={type}
                    type="button"
                    onClick={() => (delay ? sandbox.after(delay, type) : sandbox.send(event))}
                  >
                    {type}
                  </button>
                );
              })}
          </div>
          <p className="devtools-muted">
            Time stands still in the sandbox: a delay fires when its <code>xstate.after</code>{' '}
            button moves time on by the delay.
          </p>
          <SandboxHistory session={sandbox} />
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
      {!sandbox && liveActor && loaded ? (
        <LiveRecording name={entry.name} machine={loaded.machine} actor={liveActor} />
      ) : null}
    </section>
  );
}

/** Downloads a recording as the test file "Save as test" writes; returns the file's name. */
function download(recording: Recording): string {
  const name = recordingFileName(recording);
  const url = URL.createObjectURL(
    new Blob([recordingToTestFile(recording)], { type: 'text/typescript' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}

const savedHint = (name: string) => (
  <>
    Saved <code>{name}</code>: put it in <code>tests/model/recorded/</code>, and{' '}
    <code>npm run test:model</code> replays it.
  </>
);

/**
 * What a live actor of the site did since it started (its events, with the outcomes of what it
 * invoked and its delays as the site delivered them), and "Save as test" for it.
 */
function LiveRecording({
  name,
  machine,
  actor,
}: {
  name: string;
  machine: AnyStateMachine;
  actor: LiveActor;
}) {
  const [saved, setSaved] = useState<{ file: string; differsAt: string | null } | null>(null);
  const history = inspectorStore().histories.get(actor.sessionId);
  if (!history) return null;
  const save = () => {
    const { recording, differsAt } = recordingFromLive(name, machine, history);
    setSaved({ file: download(recording), differsAt });
  };
  return (
    <div className="devtools-history" aria-label="Live recording" data-live-recording={name}>
      <div className="devtools-history-controls">
        <span data-testid="live-steps">
          {history.steps.length} steps since {actor.systemId ?? actor.id} started
          {history.dropped > 0 ? ` (the first ${history.steps.length} kept)` : ''}
        </span>
        <button type="button" onClick={save}>
          Save as test
        </button>
      </div>
      <ol className="devtools-steps">
        {history.steps.map((step, i) => (
          <li key={i}>
            {describeStep({ kind: 'event', ...step })} →{' '}
            <code>{JSON.stringify(step.snapshot.value)}</code>
          </li>
        ))}
      </ol>
      {saved ? (
        <p className="devtools-muted" role="status">
          {savedHint(saved.file)}
          {saved.differsAt
            ? ` Replayed alone, the machine does not reach what the site showed at ${saved.differsAt}: the test fails there until they agree.`
            : ''}
        </p>
      ) : null}
    </div>
  );
}

/** Time travel over the sandbox's steps, and "Save as test". */
function SandboxHistory({ session }: { session: SandboxSession }) {
  const [saved, setSaved] = useState<string | null>(null);
  const save = () => setSaved(download(session.recording()));
  return (
    <div className="devtools-history" aria-label="Time travel">
      <div className="devtools-history-controls">
        <button type="button" onClick={() => session.back()} disabled={session.position === 0}>
          Step back
        </button>
        <button
          type="button"
          onClick={() => session.forward()}
          disabled={session.position >= session.steps.length}
        >
          Step forward
        </button>
        <span data-testid="sandbox-position">
          step {session.position} of {session.steps.length}
        </span>
        <button type="button" onClick={save}>
          Save as test
        </button>
      </div>
      <ol className="devtools-steps" start={0}>
        <li>
          <button
            type="button"
            aria-current={session.position === 0 ? 'step' : undefined}
            onClick={() => session.jump(0)}
          >
            start <code>{JSON.stringify(session.initial.value)}</code>
          </button>
        </li>
        {session.steps.map((step, i) => (
          <li key={i} className={i >= session.position ? 'devtools-step-ahead' : undefined}>
            <button
              type="button"
              aria-current={session.position === i + 1 ? 'step' : undefined}
              onClick={() => session.jump(i + 1)}
            >
              {describeStep(step)} → <code>{JSON.stringify(step.snapshot.value)}</code>
            </button>
          </li>
        ))}
      </ol>
      {saved ? (
        <p className="devtools-muted" role="status">
          {savedHint(saved)}
        </p>
      ) : null}
    </div>
  );
}
