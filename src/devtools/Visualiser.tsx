import { useEffect, useState, useSyncExternalStore } from 'react';
import { EventLog } from './EventLog';
import {
  inspectorStore,
  inspectorVersion,
  listenToOtherTabs,
  subscribeInspector,
  type LiveActor,
} from './inspector';
import { MachineSection } from './MachineSection';
import { MACHINES } from './registry';
import { crashText } from './sandbox';
import { SectionBoundary } from './SectionBoundary';
import { SequenceView } from './SequenceView';
import './devtools.css';

/**
 * /__machines (development and local builds only): every machine as a statechart, the actors of
 * the site open in the browser's other tabs highlighted in their current state, the last events,
 * and a sandbox per machine. The visualiser's own tab runs no app (src/devtools/standalone.tsx).
 */
export default function Visualiser() {
  useSyncExternalStore(subscribeInspector, inspectorVersion);
  // The site running in other tabs shows here (clicking through the site there moves the
  // highlighted states here).
  useEffect(() => listenToOtherTabs(), []);
  useFollowAddressSection();
  const uncaught = useUncaughtErrors();
  const store = inspectorStore();
  const actors = liveActorsFirst([...store.actors.values()].filter((a) => a.status !== 'stopped'));
  const liveOf = (name: string): LiveActor[] => actors.filter((a) => a.machineId === name);
  const tabs = new Set(actors.map((a) => a.tab).filter(Boolean)).size;
  return (
    <main className="devtools" data-testid="smw-devtools-visualiser">
      <h1>Machines</h1>
      <p className="devtools-muted">
        {MACHINES.length} machines; {actors.length} live actors of the site in {tabs} other{' '}
        {tabs === 1 ? 'tab' : 'tabs'}. Development builds only.
        {actors.length === 0 ? ' Open the site in another tab of this browser to see it live.' : ''}
      </p>
      {uncaught.length > 0 ? (
        <div className="devtools-crash" role="alert" data-testid="visualiser-uncaught">
          <p>Errors in the visualiser (the site is not affected):</p>
          <ul>
            {uncaught.map((text, i) => (
              <li key={i}>
                <code>{text}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <nav className="devtools-nav" aria-label="Machines">
        {MACHINES.map((m) => (
          <a key={m.name} href={`#machine-${m.name}`}>
            {m.name}
            {liveOf(m.name).length > 0 ? ' ●' : ''}
          </a>
        ))}
      </nav>
      <SectionBoundary name="The sequence">
        <SequenceView events={store.events} />
      </SectionBoundary>
      <div className="devtools-layout">
        <div className="devtools-charts">
          {MACHINES.map((m) => (
            <SectionBoundary key={m.name} name={m.name}>
              <MachineSection entry={m} live={liveOf(m.name)} />
            </SectionBoundary>
          ))}
        </div>
        <SectionBoundary name="The event log">
          <EventLog events={store.events} />
        </SectionBoundary>
      </div>
    </main>
  );
}

/**
 * The live actors in the order the sections list them: the site's (other tabs) first, then any
 * of this tab, each group as they started.
 */
function liveActorsFirst(actors: LiveActor[]): LiveActor[] {
  return [...actors.filter((a) => a.tab), ...actors.filter((a) => !a.tab)];
}

/**
 * /__machines#machine-<name>: the sections did not exist when the browser read the address. The
 * section is brought into view once drawn, and again each time the page grows (the charts above
 * it are laid out one by one), until the developer scrolls, clicks or types.
 */
function useFollowAddressSection(): void {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const main = document.querySelector('main.devtools');
    if (!id || !main) return;
    const follow = () => document.getElementById(id)?.scrollIntoView();
    const observer = new ResizeObserver(follow);
    observer.observe(main);
    const stop = () => {
      observer.disconnect();
      for (const type of STOP_FOLLOWING) window.removeEventListener(type, stop, true);
    };
    for (const type of STOP_FOLLOWING) window.addEventListener(type, stop, true);
    follow();
    return stop;
  }, []);
}

const STOP_FOLLOWING = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Errors nothing caught in the visualiser's tab (a sandbox's machine throwing from a timer, say):
 * listed at the top of the page instead of reaching the browser's console as uncaught.
 */
function useUncaughtErrors(): string[] {
  const [errors, setErrors] = useState<string[]>([]);
  useEffect(() => {
    const add = (text: string) => setErrors((list) => [...list.slice(-4), text]);
    const onError = (event: ErrorEvent) => {
      event.preventDefault();
      add(crashText(event.error ?? event.message));
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      event.preventDefault();
      add(crashText(event.reason));
    };
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, []);
  return errors;
}
