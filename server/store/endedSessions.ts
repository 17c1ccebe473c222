import type { Logger } from '../context';
import type { ServerEventBus } from '../events';
import type { Runner, Store } from './engine';

/**
 * Sign-in sessions ended outside the server (an operations command deleting a player): the
 * command writes each ended session's id to `ended_sessions` after its change commits, and every
 * running instance, on either engine, reads the new rows every ENDED_SESSIONS_POLL_MS and
 * announces `session.ended` to itself alone (each instance reads the table), so the sessions'
 * sockets close. Their jwts already failed: a jwt is checked against its live refresh tokens on
 * every request.
 */
export const ENDED_SESSIONS_POLL_MS = 1_000;
/** Rows older than this are pruned by the command that writes new ones. */
const ENDED_SESSIONS_KEEP_MS = 24 * 3_600_000;

/** Notes sessions as ended (inside the caller's transaction), pruning rows past their use. */
export async function recordEndedSessions(
  runner: Runner,
  familyIds: readonly string[],
  at: number,
): Promise<void> {
  await runner
    .deleteFrom('ended_sessions')
    .where('at', '<', at - ENDED_SESSIONS_KEEP_MS)
    .execute();
  if (familyIds.length === 0) return;
  await runner
    .insertInto('ended_sessions')
    .values(familyIds.map((family_id) => ({ family_id, at })))
    .execute();
}

/** Reads new ended sessions every ENDED_SESSIONS_POLL_MS until stopped. */
export async function watchEndedSessions(
  store: Store,
  events: ServerEventBus,
  log: Logger,
  pollMs = ENDED_SESSIONS_POLL_MS,
): Promise<{ stop(): Promise<void> }> {
  const newest = async () =>
    (
      await store.db
        .selectFrom('ended_sessions')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;
  let cursor = Number(await newest());
  let running: Promise<void> | undefined;
  let warned = false;
  const poll = async () => {
    try {
      const rows = await store.db
        .selectFrom('ended_sessions')
        .select(['id', 'family_id'])
        .where('id', '>', cursor)
        .orderBy('id')
        .execute();
      for (const row of rows) {
        cursor = Math.max(cursor, row.id);
        events.emit('session.ended', { sessionId: row.family_id });
      }
      warned = false;
    } catch (error) {
      if (!warned)
        log.warn(
          `Ended sessions could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      warned = true;
    }
  };
  const timer = setInterval(() => {
    running ??= poll().finally(() => (running = undefined));
  }, pollMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
