import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postApi, startTestServer } from '../../support/api';
import { until } from '../../support/until';

/**
 * The privacy page: "Technical logs: about 90 days, then deleted". With LOG_DIR the server writes
 * its request lines to one file per UTC day and deletes the files older than 90 days
 * (LOG_RETENTION_DAYS); the development outbox keeps code e-mails as long. Moved by the
 * server's clock (a test clock), checked on each side of the boundary: a file of day D is kept
 * while today is at most 90 days after D, deleted the day after; an outbox e-mail of instant t is
 * kept at t + 90 days and deleted 1 ms later.
 */
const DAY = 86_400_000;
const RETENTION_DAYS = 90;
const work = mkdtempSync(join(tmpdir(), 'smw-logs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const file = (day: string) => `requests-${day}.log`;

describe('logs kept 90 days (LOG_DIR)', () => {
  it('writes daily files and deletes those older than 90 days, at start and at each new day', async () => {
    const logDir = join(work, 'logs');
    // Before the start: a file 91 days old at T0, one 90 days old, and a file not of the server's.
    mkdirSync(logDir);
    writeFileSync(join(logDir, file('2025-10-02')), '{}\n');
    writeFileSync(join(logDir, file('2025-10-03')), '{}\n');
    writeFileSync(join(logDir, 'notes.txt'), 'kept\n');
    let clock = T0;
    const server = await startTestServer({ logDir, now: () => clock });
    const has = (name: string) => existsSync(join(logDir, name));
    const hit = async () => {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    };
    try {
      // The start's pass: 91 days old goes, 90 stays.
      expect(has(file('2025-10-02'))).toBe(false);
      expect(has(file('2025-10-03'))).toBe(true);
      expect(has('notes.txt')).toBe(true);

      await hit();
      const today = join(logDir, file('2026-01-01'));
      expect(
        await until(() => existsSync(today) && readFileSync(today, 'utf8').includes('/api/health')),
      ).toBe(true);
      expect(statSync(today).mode & 0o077).toBe(0);
      const lines = readFileSync(today, 'utf8')
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as Record<string, unknown>);
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: 'request',
          method: 'GET',
          path: '/api/health',
          status: 200,
        }),
      );

      // A new day: its own file, and October 3 is now 91 days old.
      clock = T0 + DAY;
      await hit();
      expect(await until(() => has(file('2026-01-02')) && !has(file('2025-10-03')))).toBe(true);

      // January 1's file is 90 days old on April 1 (kept) and 91 on April 2 (deleted).
      clock = Date.UTC(2026, 3, 1, 23, 59, 59);
      await hit();
      expect(await until(() => has(file('2026-04-01')))).toBe(true);
      expect(has(file('2026-01-01'))).toBe(true);
      clock = Date.UTC(2026, 3, 2, 0, 0, 1);
      await hit();
      expect(await until(() => has(file('2026-04-02')) && !has(file('2026-01-01')))).toBe(true);
      expect(has(file('2026-01-02'))).toBe(true);
      expect(readdirSync(logDir).sort()).toEqual(
        [file('2026-01-02'), file('2026-04-01'), file('2026-04-02'), 'notes.txt'].sort(),
      );
    } finally {
      await server.close();
    }
  }, 30_000);

  it('the development outbox keeps a code e-mail 90 days: there at t + 90 days, gone 1 ms later', async () => {
    let clock = T0;
    const server = await startTestServer({ now: () => clock });
    const outbox = async () =>
      (await server.store.db.selectFrom('outbox').select('email').execute()).map((r) => r.email);
    const askCode = async (email: string) =>
      expect((await postApi(server.url, 'auth/email/init', { data: { email } })).status).toBe(200);
    try {
      await askCode('first@logs.test');
      clock = T0 + RETENTION_DAYS * DAY;
      await askCode('second@logs.test');
      expect((await outbox()).sort()).toEqual(['first@logs.test', 'second@logs.test']);
      clock = T0 + RETENTION_DAYS * DAY + 1;
      await askCode('third@logs.test');
      expect((await outbox()).sort()).toEqual(['second@logs.test', 'third@logs.test']);
    } finally {
      await server.close();
    }
  });
});
