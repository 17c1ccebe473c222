import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import type { SaleReport } from '../../../server/ops/report';
import { registerUser, startTestServer, type RegisteredUser } from '../../support/api';
import { buyTicket } from '../../support/pages';
import { runOps } from '../../support/opsCli';
import { INVITATION_RULE_OFF_FROM } from '../../support/invitationRuleOff';

/**
 * `npm run report` (server/ops/report.ts) after a sale played through the real server's API over
 * three days of its clock: the Early Bird, the days before the launch, after it. The report is
 * run in its own process beside the running server and must give the exact counts the scenario
 * produced, in text, JSON and CSV, with no e-mail unless asked.
 */
const DAY1 = Date.UTC(2026, 0, 10, 9);
const HOUR = 3_600_000;
const clock = { ms: DAY1 };
const dataDir = mkdtempSync(join(tmpdir(), 'smw-report-'));
const siteDir = mkdtempSync(join(tmpdir(), 'smw-report-site-'));
let server: RunningServer;

/** One counted click on `code`'s invite link (clicks from one address count once per 10 min). */
async function click(code: string): Promise<void> {
  const page = await fetch(`${server.url}/r/${code}`);
  expect(page.status).toBe(200);
  clock.ms += 11 * 60_000;
}
const signUp = (email: string, invite?: string) => registerUser(server.url, email, invite);
const buy = (user: RegisteredUser) => buyTicket(server.url, user);

beforeAll(async () => {
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Solana Mafia Wars</title>');
  server = await startTestServer({
    dataDir,
    siteDir,
    now: () => clock.ms,
    calendar: {
      earlyBirdEnd: Date.UTC(2026, 0, 11),
      launchAt: Date.UTC(2026, 0, 12),
      prices: { earlyBird: '0.22', beforeLaunch: '0.33', afterLaunch: '0.55' },
      // A sale written before the invitation rule: its own test is invitationRule.test.ts.
      invitationFrom: Date.parse(INVITATION_RULE_OFF_FROM),
    },
  });

  // Day 1, Early Bird: Alice buys; Bob only signs up.
  const alice = await signUp('alice@report.test');
  await buy(alice);
  const bob = await signUp('bob@report.test');
  const aliceCode = alice.userData.user_invite_code;
  const bobCode = bob.userData.user_invite_code;

  // Day 2, before the launch: Alice's link is opened 3 times, Carol and Dave come through it and
  // Carol buys; Bob's link twice, Erin comes through it and buys.
  clock.ms = DAY1 + 24 * HOUR;
  for (let i = 0; i < 3; i += 1) await click(aliceCode);
  const carol = await signUp('carol@report.test', aliceCode);
  await buy(carol);
  await signUp('dave@report.test', aliceCode);
  for (let i = 0; i < 2; i += 1) await click(bobCode);
  const erin = await signUp('erin@report.test', bobCode);
  await buy(erin);

  // Day 3, after the launch: Frank comes through Bob's code and buys: Bob's second friend, so Bob
  // enters through friends. Gina signs up on her own.
  clock.ms = DAY1 + 48 * HOUR;
  const frank = await signUp('frank@report.test', bobCode);
  await buy(frank);
  await signUp('gina@report.test');
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(siteDir, { recursive: true, force: true });
});

const report = (...args: string[]) => runOps('report', args, { DATA_DIR: dataDir });

describe('npm run report', () => {
  it('--json gives the exact counts of the sale, per day, read beside the running server', async () => {
    const run = await report('--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out) as SaleReport;
    const alice = (await server.ctx.users.findByEmail('alice@report.test'))!.invite_code;
    const bob = (await server.ctx.users.findByEmail('bob@report.test'))!.invite_code;
    expect(json.totals).toEqual({
      sign_ups: 7,
      tickets: 4,
      tickets_by_tier: { early_bird: 1, before_launch: 2, after_launch: 1 },
      entries_via_friends: 1,
      received_sol: '1.43',
      swept_sol: '0',
      sweep_fees_sol: '0',
      waiting_sol: '1.43',
      refundable_sol: '0',
      refundable_wallets: 0,
      refundable_without_inviter: 0,
    });
    expect(json.funnel).toEqual({ clicks: 5, registered: 4, bought: 3 });
    expect(json.top_inviters).toEqual([
      { invite_code: bob, clicks: 2, registered: 2, bought: 2, access_via_friends: true },
      { invite_code: alice, clicks: 3, registered: 2, bought: 1, access_via_friends: false },
    ]);
    const zero = { early_bird: 0, before_launch: 0, after_launch: 0, swept_sol: '0' };
    expect(json.days).toEqual([
      {
        ...zero,
        day: '2026-01-10',
        sign_ups: 2,
        tickets: 1,
        early_bird: 1,
        entries_via_friends: 0,
        received_sol: '0.22',
        clicks: 0,
        registered_via_invite: 0,
        bought_via_invite: 0,
      },
      {
        ...zero,
        day: '2026-01-11',
        sign_ups: 3,
        tickets: 2,
        before_launch: 2,
        entries_via_friends: 0,
        received_sol: '0.66',
        clicks: 5,
        registered_via_invite: 3,
        bought_via_invite: 2,
      },
      {
        ...zero,
        day: '2026-01-12',
        sign_ups: 2,
        tickets: 1,
        after_launch: 1,
        entries_via_friends: 1,
        received_sol: '0.55',
        clicks: 0,
        registered_via_invite: 1,
        bought_via_invite: 1,
      },
    ]);
    expect(run.out).not.toMatch(/@report\.test/);
  });

  it('prints the funnel and the totals as text, never an e-mail unless --emails', async () => {
    const run = await report();
    expect(run.code).toBe(0);
    console.log(run.out);
    expect(run.out).toContain('Referral funnel: 5 link clicks → 4 registered → 3 bought');
    expect(run.out).toMatch(/Sign-ups\s+7\n/);
    expect(run.out).toMatch(
      /Tickets bought\s+4 \(Early Bird 1, before launch 2, after launch 1\)\n/,
    );
    expect(run.out).toMatch(/Entries through friends\s+1\n/);
    expect(run.out).toMatch(/SOL waiting\s+1\.43\n/);
    expect(run.out).not.toMatch(/@report\.test/);
    const withEmails = await report('--emails');
    expect(withEmails.out).toMatch(/bob@report\.test/);
  });

  it('--csv has one row per day', async () => {
    const run = await report('--csv');
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toEqual([
      'day,sign_ups,tickets,early_bird,before_launch,after_launch,entries_via_friends,received_sol,clicks,registered_via_invite,bought_via_invite,swept_sol',
      '2026-01-10,2,1,1,0,0,0,0.22,0,0,0,0',
      '2026-01-11,3,2,0,2,0,0,0.66,5,3,2,0',
      '2026-01-12,2,1,0,0,1,1,0.55,0,1,1,0',
    ]);
    const refused = await report('--pdf');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/Unknown option --pdf/);
  });
});
