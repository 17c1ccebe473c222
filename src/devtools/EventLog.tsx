import { useState } from 'react';
import type { AnyEventObject } from 'xstate';
import type { LiveEvent } from './inspector';
import { showRedacted } from './redact';

/**
 * The heartbeat of the realtime connection: the ping the client sends every 30 s, the server's
 * pong, and the timer that schedules the next ping. Hidden from the log unless asked for.
 */
export function isHeartbeat(event: AnyEventObject): boolean {
  if (/(?:^|\.)(?:ping|pong)$/i.test(event.type) || /pingInterval/.test(event.type)) return true;
  const frame: unknown = (event as { frame?: unknown }).frame;
  const frameType =
    frame && typeof frame === 'object' ? (frame as { type?: unknown }).type : undefined;
  return frameType === 'ping' || frameType === 'pong';
}

/** The sender of an event no actor sent: a view of the page, a browser listener. */
export const PAGE = 'page';

/** hh:mm:ss.mmm of an event, local time. */
function clockTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** An event's payload (everything but its type) as short JSON, secrets redacted; '' if none. */
function payloadOf(event: AnyEventObject): string {
  const { type: _type, ...payload } = event;
  if (Object.keys(payload).length === 0) return '';
  return showRedacted(payload, 400, 0);
}

/** The sender as the filter knows it: of the receiver's tab, named like the receiver. */
function sender(e: LiveEvent): string {
  if (!e.from) return PAGE;
  return e.actor.endsWith(OTHER_TAB) ? `${e.from}${OTHER_TAB}` : e.from;
}

const OTHER_TAB = ' (other tab)';

/**
 * The last events the site's actors took, newest first, each with who sent it and who took it
 * (`session → auth`; `page` when no actor sent it), with filters: by actor (sender or receiver),
 * by event type (a part of its name), and the realtime heartbeats (hidden by default).
 */
export function EventLog({ events }: { events: LiveEvent[] }) {
  const [actor, setActor] = useState('');
  const [type, setType] = useState('');
  const [hideHeartbeats, setHideHeartbeats] = useState(true);
  const actors = [...new Set(events.flatMap((e) => [e.actor, sender(e)]))]
    .filter((a) => a !== PAGE)
    .sort();
  const needle = type.trim().toLowerCase();
  const shown = events.filter(
    (e) =>
      (actor === '' || e.actor === actor || sender(e) === actor) &&
      (needle === '' || e.type.toLowerCase().includes(needle)) &&
      !(hideHeartbeats && isHeartbeat(e.event)),
  );
  const hidden = events.length - shown.length;
  return (
    <aside className="devtools-log" aria-label="Last events">
      <h2>Last events</h2>
      <div className="devtools-log-filters">
        <label>
          Actor{' '}
          <select value={actor} onChange={(e) => setActor(e.target.value)}>
            <option value="">all</option>
            {actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
            {actor !== '' && !actors.includes(actor) ? (
              <option value={actor}>{actor}</option>
            ) : null}
          </select>
        </label>
        <label>
          Event type{' '}
          <input
            type="search"
            value={type}
            placeholder="e.g. signIn."
            onChange={(e) => setType(e.target.value)}
            spellCheck={false}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={hideHeartbeats}
            onChange={(e) => setHideHeartbeats(e.target.checked)}
          />{' '}
          Hide heartbeats (ping, pong)
        </label>
      </div>
      <p className="devtools-muted" data-testid="log-count">
        {shown.length} of {events.length} events shown
        {hidden > 0 ? ` (${hidden} filtered out)` : ''}. Tokens are redacted.
      </p>
      <ol data-testid="event-log">
        {shown.map((e) => {
          const payload = payloadOf(e.event);
          return (
            <li key={`${e.at}-${e.actor}-${e.type}-${events.indexOf(e)}`} data-event-type={e.type}>
              <time dateTime={new Date(e.at).toISOString()}>{clockTime(e.at)}</time>
              <code>{e.type}</code>{' '}
              <span className="devtools-route" data-testid="event-route">
                <span data-role="sender">{e.from ?? PAGE}</span> →{' '}
                <span data-role="receiver">{e.actor}</span>
              </span>
              {e.fromVisualiser ? <span className="devtools-tag"> sent from here</span> : null}
              {payload ? <code className="devtools-payload">{payload}</code> : null}
            </li>
          );
        })}
      </ol>
    </aside>
  );
}
