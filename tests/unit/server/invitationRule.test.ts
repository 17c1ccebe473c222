import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import type { SaleReport } from '../../../server/ops/report';
import { calendarFromEnv } from '../../../contract/calendar';
import { sanitizeInviteCode } from '../../../contract/inviteCode';
import { EARLIER_SIGN_UPS_ENTER_WITHOUT_INVITATION } from '../../../contract/invitation';
import { EARLY_BIRD_END_MS } from '../../../contract/spec';
import {
  postApi,
  registerUser,
  startTestServer,
  walletBalance,
  type RegisteredUser,
} from '../../support/api';
import { runOps } from '../../support/opsCli';
import { rpc } from '../../support/rpc';

/**
 * §2 bonus box: "invitation via ref is required to enter after Nov 20". The server runs the
 * default setting (no INVITATION_REQUIRED_FROM: the rule starts at the Early Bird end, the
 * spec's Nov 20) on a clock that moves across that date.
 */
const DAY = 86_400_000;
const clock = { ms: EARLY_BIRD_END_MS - DAY };
const dataDir = mkdtempSync(join(tmpdir(), 'smw-invitation-'));
const siteDir = mkdtempSync(join(tmpdir(), 'smw-invitation-site-'));
let server: RunningServer;

const defaultCalendar = calendarFromEnv({});
const signUp = (email: string, invite?: string) => registerUser(server.url, email, invite);

async function priceLamports(): Promise<number> {
  const init = await postApi(server.url, 'sess/init', {});
  const data = init.body.data as { public_data: { ticket_price_lamports: string } };
  return Number(data.public_data.ticket_price_lamports);
}
async function pay(user: RegisteredUser): Promise<boolean> {
  await rpc(server.url, 'requestAirdrop', [
    user.userData.user_payment_wallet,
    await priceLamports(),
  ]);
  const answer = await walletBalance(server.url, user);
  expect(answer.status).toBe(200);
  return answer.body.access_granted === true;
}
const userData = async (user: RegisteredUser) =>
  (await postApi(server.url, 'user/data', { session: user.sessionToken }, user.jwt)).body
    .user_data as Record<string, unknown>;
const setInviter = (user: RegisteredUser, code: string) =>
  postApi(server.url, 'user/inviter', { session: user.sessionToken, data: { code } }, user.jwt);

let early: RegisteredUser;
let friend: RegisteredUser;

beforeAll(async () => {
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Solana Mafia Wars</title>');
  server = await startTestServer({
    dataDir,
    siteDir,
    now: () => clock.ms,
    calendar: defaultCalendar,
  });
  // Registered the day before the Early Bird ends, without an invitation.
  await signUp('early@rule.test');
  await signUp('friend@rule.test');
  clock.ms = EARLY_BIRD_END_MS + DAY;
  // Signed in again after the date (a jwt lives 15 minutes): the same accounts.
  early = await signUp('early@rule.test');
  friend = await signUp('friend@rule.test');
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(siteDir, { recursive: true, force: true });
});

describe('§2 an invitation via ref is required to enter after the Early Bird', () => {
  it('the default setting is the Early Bird end, and sess/init names it', async () => {
    const init = await postApi(server.url, 'sess/init', {});
    const data = init.body.data as { public_data: { invitation_from: string } };
    expect(Date.parse(data.public_data.invitation_from)).toBe(EARLY_BIRD_END_MS);
    expect(
      calendarFromEnv({ INVITATION_REQUIRED_FROM: '2026-03-01T00:00:00Z' }).invitationFrom,
    ).toBe(Date.parse('2026-03-01T00:00:00Z'));
  });

  it('a newcomer without an inviter after the date is told so and their payment is not settled', async () => {
    const loner = await signUp('loner@rule.test');
    expect(loner.userData.user_needs_invitation).toBe(true);
    // Development mode: the house invite code is offered for a first try.
    expect(String(loner.userData.user_house_invite_code)).toMatch(/^[A-Z0-9]{8}$/);
    expect(await pay(loner)).toBe(false);
    const after = await userData(loner);
    expect(after.user_access).toBe(0);
    expect(after.user_needs_invitation).toBe(true);
  });

  it('a newcomer who came through a friend’s link pays as before', async () => {
    const invited = await signUp('invited@rule.test', friend.userData.user_invite_code);
    expect(invited.userData.user_needs_invitation).toBeUndefined();
    expect(await pay(invited)).toBe(true);
  });

  it('a player registered before the date enters without an invitation (grandfathered)', async () => {
    expect((await userData(early)).user_needs_invitation).toBeUndefined();
    expect(await pay(early)).toBe(EARLIER_SIGN_UPS_ENTER_WITHOUT_INVITATION);
  });

  it('a friend’s code entered after sign-in is cleaned, names the inviter and settles money already paid', async () => {
    const late = await signUp('late@rule.test');
    expect(await pay(late)).toBe(false);
    const typed = `  ${friend.userData.user_invite_code.toLowerCase().slice(0, 4)}-${friend.userData.user_invite_code.toLowerCase().slice(4)} `;
    expect(sanitizeInviteCode(typed).toUpperCase()).toBe(friend.userData.user_invite_code);
    const answer = await setInviter(late, typed);
    expect(answer.status).toBe(200);
    const data = answer.body.user_data as Record<string, unknown>;
    expect(data.user_needs_invitation).toBeUndefined();
    // The SOL that was waiting in the payment wallet settles the ticket at once.
    expect(data.user_access).toBe(1);
    // The friend counts them as registered and confirmed through the link.
    const counts = await userData(friend);
    expect(counts.user_ref_registered).toBe(2);
    expect(counts.user_ref_confirmed).toBe(2);
  });

  it('an unknown code, the player’s own code and a second inviter are refused with a message', async () => {
    const other = await signUp('other@rule.test');
    const unknown = await setInviter(other, 'nosuchcode');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(
      'The invite code NOSUCHCODE is unknown: check it with the friend who sent it.',
    );
    const own = await setInviter(other, other.userData.user_invite_code);
    expect(own.status).toBe(400);
    expect((await userData(other)).user_needs_invitation).toBe(true);
    expect((await setInviter(other, friend.userData.user_invite_code)).status).toBe(200);
    expect((await setInviter(other, early.userData.user_invite_code)).status).toBe(409);
  });

  it('invite/check tells a known code from an unknown one', async () => {
    const check = async (code: string) =>
      (await postApi(server.url, 'invite/check', { data: { code } })).body.known;
    expect(await check(friend.userData.user_invite_code.toLowerCase())).toBe(true);
    expect(await check('NOSUCHCODE')).toBe(false);
    expect(await check('--')).toBe(false);
  });

  it('money that arrived without a ticket stays visible to the sale report as refundable', async () => {
    const report = JSON.parse(
      (await runOps('report', ['--json'], { DATA_DIR: dataDir })).out,
    ) as SaleReport;
    // loner's payment (0.33 SOL, the price after the Early Bird) is the only one not settled.
    expect(report.totals.refundable_wallets).toBe(1);
    expect(report.totals.refundable_without_inviter).toBe(1);
    expect(report.totals.refundable_sol).toBe(defaultCalendar.prices.beforeLaunch);
    const text = (await runOps('report', [], { DATA_DIR: dataDir })).out;
    expect(text).toContain(
      `SOL refundable           ${defaultCalendar.prices.beforeLaunch} (1 wallet(s) without a ticket, 1 without an inviter)`,
    );
  });
});
