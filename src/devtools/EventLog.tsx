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

/**
 * The last events the site's actors took, newest first, with filters: by actor, by event type
 * (a part of its name), and the realtime heartbeats (hidden by default).
 */
export function EventLog({ events }: { events: LiveEvent[] }) {
  const [actor, setActor] = useState('');
  const [type, setType] = useState('');
  const [hideHeartbeats, setHideHeartbeats] = useState(true);
  const actors = [...new Set(events.map((e) => e.actor))].sort();
  const needle = type.trim().toLowerCase();
  const shown = events.filter(
    (e) =>
      (actor === '' || e.actor === actor) &&
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
              <code>{e.type}</code> → {e.actor}
              {e.fromVisualiser ? <span className="devtools-tag"> sent from here</span> : null}
              {payload ? <code className="devtools-payload">{payload}</code> : null}
            </li>
          );
        })}
      </ol>
    </aside>
  );
}
