import { useEffect, useSyncExternalStore } from 'react';
import type { AnyEventObject } from 'xstate';
import {
  inspectorStore,
  inspectorVersion,
  listenToOtherTabs,
  subscribeInspector,
  type LiveActor,
} from './inspector';
import { MachineSection } from './MachineSection';
import { MACHINES } from './registry';
import { showValue } from './sandbox';
import './devtools.css';

/**
 * /__machines (development and local builds only): every machine as a statechart, the live app's
 * actors (of this tab and of the site open in other tabs) highlighted in their current state, the
 * last events, and a sandbox per machine.
 */
export default function Visualiser() {
  useSyncExternalStore(subscribeInspector, inspectorVersion);
  // The app running in other tabs shows here too (clicking through the site there moves the
  // highlighted states here).
  useEffect(() => listenToOtherTabs(), []);
  const store = inspectorStore();
  const actors = [...store.actors.values()].filter((a) => a.status !== 'stopped');
  const liveOf = (name: string): LiveActor[] => actors.filter((a) => a.machineId === name);
  return (
    <main className="devtools" data-testid="smw-devtools-visualiser">
      <h1>Machines</h1>
      <p className="devtools-muted">
        {MACHINES.length} machines, {actors.length} live actors. Development builds only.
      </p>
      <nav className="devtools-nav" aria-label="Machines">
        {MACHINES.map((m) => (
          <a key={m.name} href={`#machine-${m.name}`}>
            {m.name}
            {liveOf(m.name).length > 0 ? ' ●' : ''}
          </a>
        ))}
      </nav>
      <div className="devtools-layout">
        <div className="devtools-charts">
          {MACHINES.map((m) => (
            <MachineSection key={m.name} entry={m} live={liveOf(m.name)} />
          ))}
        </div>
        <aside className="devtools-log" aria-label="Last events">
          <h2>Last events</h2>
          {store.events.length === 0 ? <p className="devtools-muted">None yet.</p> : null}
          <ol>
            {store.events.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <time dateTime={new Date(e.at).toISOString()}>{clockTime(e.at)}</time>
                <code>{e.type}</code> → {e.actor}
                {payloadOf(e.event) ? (
                  <code className="devtools-payload">{payloadOf(e.event)}</code>
                ) : null}
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </main>
  );
}

/** hh:mm:ss.mmm of an event, local time. */
function clockTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** An event's payload (everything but its type) as short JSON, or '' when it has none. */
function payloadOf(event: AnyEventObject): string {
  const { type: _type, ...payload } = event;
  const shown = showValue(payload).replace(/\s+/g, ' ');
  return shown === '{}' ? '' : shown;
}
