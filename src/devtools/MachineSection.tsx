import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { AnyEventObject, AnyStateMachine } from 'xstate';
import { ChartView } from './ChartView';
import { describeEvent, machineToChart, type Chart } from './graph';
import { inspectorStore, sendToLive, type LiveActor } from './inspector';
import { redactValue, showRedacted } from './redact';
import type { MachineEntry } from './registry';
import {
  describeStep,
  recordingFileName,
  recordingToTestFile,
  type RecordedStep,
  type Recording,
} from './recording';
import { sampleInputText } from './sampleInputs';
import {
  activeNodeIds,
  canTake,
  chartEvents,
  crashText,
  recordingFromLive,
  SandboxSession,
  sandboxEvent,
} from './sandbox';

type Loaded = { machine: AnyStateMachine; chart: Chart };

/** One machine: its chart, the live actors running it, and a sandbox actor on demand. */
export function MachineSection({ entry, live }: { entry: MachineEntry; live: LiveActor[] }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<SandboxSession | null>(null);
  const [input, setInput] = useState(() => sampleInputText(entry.name));
  const [payload, setPayload] = useState('{}');
  // The live actor picked by hand (its sessionId); until then, the one the developer drove last.
  const [picked, setPicked] = useState<string | null>(null);

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

  const liveActor = live.find((a) => a.sessionId === picked) ?? drivenLast(live);
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
    let value: unknown;
    try {
      value = input.trim() === '' ? undefined : (JSON.parse(input) as unknown);
    } catch (e) {
      setError(`Sandbox input is not JSON: ${crashText(e)}`);
      return;
    }
    try {
      setError(null);
      setSandbox(new SandboxSession(entry.name, loaded.machine, value));
    } catch (e) {
      setError(`Sandbox did not start: ${crashText(e)}`);
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
            {live.map((a) => (
              <button
                key={a.sessionId}
                type="button"
                aria-pressed={a === liveActor && !sandbox}
                onClick={() => {
                  setPicked(a.sessionId);
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
          <input value={input} onChange={(e) => setInput(e.target.value)} spellCheck={false} />{' '}
          <span className="devtools-muted">
            {input === sampleInputText(entry.name)
              ? 'the sample input (src/devtools/sampleInputs.ts)'
              : ''}
          </span>
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
            (<span data-testid="sandbox-status">{snapshot.status}</span>)
          </p>
          {sandbox.crash ? (
            <p className="devtools-error" role="alert" data-testid="sandbox-crash">
              The machine crashed: {sandbox.crash}. Step back, or stop the sandbox and start it from
              another input.
            </p>
          ) : null}
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
          <pre className="devtools-context">{showRedacted(snapshot.context)}</pre>
        </div>
      ) : liveActor ? (
        <details className="devtools-livectx">
          <summary>
            {liveActor.systemId ?? liveActor.id}: <code>{JSON.stringify(liveActor.value)}</code> (
            {liveActor.status})
          </summary>
          <pre className="devtools-context">{showRedacted(liveActor.context)}</pre>
        </details>
      ) : null}
      {!sandbox && liveActor && loaded ? (
        <>
          <LiveSend chart={loaded.chart} actor={liveActor} active={active} />
          <LiveRecording name={entry.name} machine={loaded.machine} actor={liveActor} />
        </>
      ) : null}
    </section>
  );
}

/** The actor of a machine's live ones that changed last (the tab the developer is driving). */
function drivenLast(live: LiveActor[]): LiveActor | undefined {
  return live.reduce<LiveActor | undefined>(
    (last, a) => (!last || (a.updatedAt ?? 0) > (last.updatedAt ?? 0) ? a : last),
    undefined,
  );
}

/** describeStep with the event's secrets redacted and a long payload cut (the step lists). */
function describeRedacted(step: RecordedStep): string {
  const text = describeStep(
    step.kind === 'event' ? { ...step, event: redactValue(step.event) as AnyEventObject } : step,
  );
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Sends an event to the live actor (of the site in another tab): the events its active states
 * take, with a JSON payload. The actor takes it like every other event, so it is logged ("sent from
 * here") and recorded as a step of its history.
 */
function LiveSend({
  chart,
  actor,
  active,
}: {
  chart: Chart;
  actor: LiveActor;
  active: Set<string>;
}) {
  const handled = [
    ...new Set(
      chart.edges
        .filter(
          (e) =>
            active.has(e.source) &&
            e.kind !== 'always' &&
            e.kind !== 'wildcard' &&
            !e.event.startsWith('xstate.'),
        )
        .map((e) => e.event),
    ),
  ];
  const [type, setType] = useState('');
  const [payload, setPayload] = useState('{}');
  const [note, setNote] = useState<string | null>(null);
  const chosen = handled.includes(type) ? type : (handled[0] ?? '');
  const send = () => {
    let body: unknown;
    try {
      body = JSON.parse(payload || '{}');
    } catch (e) {
      setNote(`The payload is not JSON: ${crashText(e)}`);
      return;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      setNote('The payload is a JSON object, e.g. {"email":"player@example.com"}.');
      return;
    }
    sendToLive(actor, { ...(body as Record<string, unknown>), type: chosen });
    setNote(`Sent ${chosen} to ${actor.systemId ?? actor.id}.`);
  };
  if (handled.length === 0) return null;
  return (
    <form
      className="devtools-send"
      aria-label="Send an event"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label>
        Send to {actor.systemId ?? actor.id}
        {actor.tab ? ' (other tab)' : ''}{' '}
        <select value={chosen} onChange={(e) => setType(e.target.value)}>
          {handled.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        payload (JSON){' '}
        <input value={payload} onChange={(e) => setPayload(e.target.value)} spellCheck={false} />
      </label>{' '}
      <button type="submit">Send</button>
      {note ? (
        <span className="devtools-muted" role="status">
          {' '}
          {note}
        </span>
      ) : null}
    </form>
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
            {describeRedacted({ kind: 'event', ...step })} →{' '}
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
              {describeRedacted(step)} → <code>{JSON.stringify(step.snapshot.value)}</code>
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
