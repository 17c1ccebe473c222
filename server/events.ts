import { EventEmitter } from 'node:events';

/**
 * Facts the server announces to its other parts. Core routes emit the invite and user facts;
 * the payment code emits `access.granted` and `invite.confirmed`; the websocket rooms listen and
 * push notifications to the browser.
 */
export type ServerEvents = {
  /** A new account was created with the invite code of `inviterId`. */
  'invite.registered': { inviterId: number; userId: number };
  /** Someone opened the site through the invite link of `inviterId`. */
  'invite.clicked': { inviterId: number; code: string };
  /** An invitee of `inviterId` bought a ticket. */
  'invite.confirmed': { inviterId: number; userId: number };
  /** `userId` now has training access (paid ticket, or two invitees bought tickets). */
  'access.granted': { userId: number; via: 'ticket' | 'invites'; amountLamports?: string };
  /** The chain balance of `userId`'s payment wallet differs from the one last stored. */
  'balance.changed': { userId: number; lamports: string };
  /** `userId`'s ticket was settled (paid, access and codes in one transaction), of `tier`. */
  'ticket.settled': { userId: number; tier: string; amountLamports: string };
  /** A sign-in code left: e-mailed (`mail`), written to the staging log, or to the dev outbox. */
  'code.sent': { via: 'mail' | 'log' | 'outbox' };
  /** A code e-mail was refused by a mail limit (server/mailQuota.ts): site-wide or per domain. */
  'mail.refused': { limit: 'site' | 'domain' };
  /** A sign-in code e-mail could not be delivered (after its one retry). */
  'code.failed': Record<string, never>;
  /** Invitation codes were issued to `userId` (a confirmed Early Bird ticket). */
  'codes.issued': { userId: number; count: number };
  /** A sign-in session ended (Exit, or a stolen refresh token replayed): its jwts stop working. */
  'session.ended': { sessionId: string };
};

export type ServerEventName = keyof ServerEvents;
type ServerEventListener<K extends ServerEventName> = (payload: ServerEvents[K]) => void;

export type ServerEventBus = {
  emit<K extends ServerEventName>(name: K, payload: ServerEvents[K]): void;
  on<K extends ServerEventName>(name: K, listener: ServerEventListener<K>): () => void;
  once<K extends ServerEventName>(name: K, listener: ServerEventListener<K>): () => void;
  removeAll(): void;
};

/**
 * A typed wrapper over EventEmitter. A throwing listener is logged and never breaks the request
 * that emitted the fact.
 */
export function createEventBus(log: (message: string) => void = console.error): ServerEventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  const guard =
    <K extends ServerEventName>(name: K, listener: ServerEventListener<K>) =>
    (payload: ServerEvents[K]) => {
      try {
        listener(payload);
      } catch (error) {
        log(
          `event listener for ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
  return {
    emit(name, payload) {
      emitter.emit(name, payload);
    },
    on(name, listener) {
      const wrapped = guard(name, listener);
      emitter.on(name, wrapped);
      return () => emitter.off(name, wrapped);
    },
    once(name, listener) {
      const wrapped = guard(name, listener);
      emitter.once(name, wrapped);
      return () => emitter.off(name, wrapped);
    },
    removeAll() {
      emitter.removeAllListeners();
    },
  };
}
