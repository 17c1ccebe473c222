import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../context';
import type { ServerEventBus, ServerEventName, ServerEvents } from '../events';
import type { Store } from './engine';

/**
 * The facts pages on other instances must see, sent to every instance of one Postgres through
 * LISTEN/NOTIFY: what reaches a player's open page (an invitee registered, a click, a friend's
 * ticket, access, a balance, codes) and the end of a sign-in session (its sockets close
 * everywhere). Counting facts (codes sent, mail refused, tickets settled) stay with the
 * instance that did the work, so metrics count each once.
 */
export const SHARED_EVENTS: ReadonlySet<ServerEventName> = new Set<ServerEventName>([
  'invite.registered',
  'invite.clicked',
  'invite.confirmed',
  'access.granted',
  'balance.changed',
  'codes.issued',
  'session.ended',
]);
export const EVENTS_CHANNEL = 'smw_events';
/** Postgres refuses a NOTIFY payload of 8000 bytes or more; ours carry ids and are far smaller. */
const MAX_PAYLOAD = 7_900;
const RELISTEN_MS = 1_000;

type Envelope = { from: string; name: ServerEventName; payload: unknown };

export type SharedEvents = { bus: ServerEventBus; close(): Promise<void> };

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
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
    },
  };
}
