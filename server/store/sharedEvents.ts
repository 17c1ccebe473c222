import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../context';
import type { ServerEventBus, ServerEventName, ServerEvents } from '../events';
import type { RelayMessage, RoomRelay } from '../realtime/rooms';
import type { Store } from './engine';

/**
 * The facts pages on other instances must see, sent to every instance of one Postgres through
 * LISTEN/NOTIFY: what reaches a player's open page (an invitee registered, a click, a friend's
 * ticket, access, a balance, codes) and the end of a sign-in session (its sockets close
 * everywhere). Counting facts (codes sent, mail refused, tickets settled) stay with the
 * instance that did the work, so metrics count each once.
 */
const SHARED_EVENTS: ReadonlySet<ServerEventName> = new Set<ServerEventName>([
  'invite.registered',
  'invite.clicked',
  'invite.confirmed',
  'access.granted',
  'balance.changed',
  'codes.issued',
  'session.ended',
]);
const EVENTS_CHANNEL = 'smw_events';
/** The websocket rooms' traffic between instances (chat, member counts). */
const ROOMS_CHANNEL = 'smw_rooms';
/**
 * A room message goes out in parts of at most this many UTF-16 units (at most 3 bytes each in
 * UTF-8, escaped or not), all in one statement, so a 15,000-character chat fits the payload cap.
 */
const PART_UNITS = 2_000;
/** A message whose parts have not all arrived after this long is dropped. */
const PARTS_TTL_MS = 10_000;
/** Postgres refuses a NOTIFY payload of 8000 bytes or more; ours carry ids and are far smaller. */
const MAX_PAYLOAD = 7_900;
const RELISTEN_MS = 1_000;

type Envelope = { from: string; name: ServerEventName; payload: unknown };
/** Part `part` of `parts` of room message `id` (the message's JSON, cut). */
type RoomPart = { from: string; id: string; part: number; parts: number; text: string };

export type SharedEvents = { bus: ServerEventBus; rooms: RoomRelay; close(): Promise<void> };

/**
 * A bus whose shared facts also reach every other instance: each is told after the change it
 * announces has committed (the events are emitted after the store's call returns), through one
 * `pg_notify` on the pool, and heard on one dedicated listening connection per instance (taken
 * again after a drop). An instance ignores its own notifications: its listeners heard the fact
 * when it was emitted.
 */
export async function shareEvents(
  databaseUrl: string,
  store: Store,
  local: ServerEventBus,
  log: Logger,
): Promise<SharedEvents> {
  const instance = randomUUID();
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === ROOMS_CHANNEL && message.payload) {
        heardRoomPart(message.payload);
        return;
      }
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message.payload) as Envelope;
      } catch {
        return;
      }
      if (envelope.from === instance || !SHARED_EVENTS.has(envelope.name)) return;
      local.emit(envelope.name, envelope.payload as ServerEvents[typeof envelope.name]);
    });
    const again = () => {
      if (closed || listener !== client) return;
      listener = undefined;
      log.warn('Shared events: the listening connection to Postgres dropped; listening again');
      retry = setTimeout(() => void listen().catch(() => again()), RELISTEN_MS);
    };
    client.on('error', again);
    client.on('end', again);
    listener = client;
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    await client.query(`LISTEN ${ROOMS_CHANNEL}`);
  };

  const roomListeners = new Set<(message: RelayMessage, from: string) => void>();
  /** Parts heard so far per message, and when its first part came. */
  const partial = new Map<string, { parts: string[]; heard: number; at: number }>();
  function heardRoomPart(payload: string): void {
    let part: RoomPart;
    try {
      part = JSON.parse(payload) as RoomPart;
    } catch {
      return;
    }
    if (part.from === instance) return;
    const now = Date.now();
    for (const [id, entry] of partial) if (now - entry.at > PARTS_TTL_MS) partial.delete(id);
    const key = `${part.from}/${part.id}`;
    let entry = partial.get(key);
    if (!entry) {
      entry = { parts: new Array<string>(part.parts).fill(''), heard: 0, at: now };
      partial.set(key, entry);
    }
    if (entry.parts[part.part] === '') entry.heard += 1;
    entry.parts[part.part] = part.text;
    if (entry.heard < part.parts) return;
    partial.delete(key);
    let message: RelayMessage;
    try {
      message = JSON.parse(entry.parts.join('')) as RelayMessage;
    } catch {
      return;
    }
    for (const listener of roomListeners) listener(message, part.from);
  }
  let sent = 0;
  const rooms: RoomRelay = {
    publish(message) {
      const text = JSON.stringify(message);
      const id = `${(sent += 1).toString(36)}`;
      const count = Math.max(1, Math.ceil(text.length / PART_UNITS));
      const parts = Array.from({ length: count }, (_, part) =>
        JSON.stringify({
          from: instance,
          id,
          part,
          parts: count,
          text: text.slice(part * PART_UNITS, (part + 1) * PART_UNITS),
        } satisfies RoomPart),
      );
      // One statement: the parts are told together, in order, when it commits.
      void store
        .raw(
          store.db,
          `SELECT ${parts.map(() => 'pg_notify(?, ?)').join(', ')}`,
          parts.flatMap((payload) => [ROOMS_CHANNEL, payload]),
        )
        .catch((error: unknown) =>
          log.warn(
            `Shared rooms: a ${message.kind} update did not reach the other instances: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    },
    subscribe(listener) {
      roomListeners.add(listener);
      return () => roomListeners.delete(listener);
    },
  };
  await listen();

  const publish = (name: ServerEventName, payload: unknown) => {
    const text = JSON.stringify({ from: instance, name, payload } satisfies Envelope);
    if (text.length > MAX_PAYLOAD) {
      log.error(`Shared events: ${name} is too large to send to other instances`);
      return;
    }
    void store
      .raw(store.db, 'SELECT pg_notify(?, ?)', [EVENTS_CHANNEL, text])
      .catch((error: unknown) =>
        log.warn(
          `Shared events: ${name} not sent to other instances: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  };

  const bus: ServerEventBus = {
    ...local,
    emit(name, payload) {
      local.emit(name, payload);
      if (SHARED_EVENTS.has(name)) publish(name, payload);
    },
  };
  return {
    bus,
    rooms,
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
    },
  };
}
