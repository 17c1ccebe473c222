/**
 * The sale report: `npm run report` (a text summary), `-- --json`, `-- --csv` (one row per day).
 *
 * Sign-ups, tickets bought (by tier), entries through friends, SOL received, swept and waiting,
 * the referral funnel (invite link clicks → registered → bought) and the top inviters by invite
 * code, in total and per UTC day. Reads the store of the running server (DATABASE_URL, else
 * `DATA_DIR/site.sqlite` through a read-only connection) in one read transaction: safe beside the
 * running server (readers never block its writes). E-mails appear only with `--emails`.
 */
import { resolve } from 'node:path';
import { FRIENDS_FOR_ACCESS } from '../../contract/spec';
import { lamportsToSol } from '../../contract/lamports';
import type { Runner, Store } from '../store/engine';
import { openExistingStore, storeOptionsFromEnv } from '../store/index';

export const TIERS = ['early_bird', 'before_launch', 'after_launch'] as const;
export type Tier = (typeof TIERS)[number];

export type DayRow = {
  day: string;
  sign_ups: number;
  tickets: number;
  early_bird: number;
  before_launch: number;
  after_launch: number;
  entries_via_friends: number;
  received_sol: string;
  clicks: number;
  registered_via_invite: number;
  bought_via_invite: number;
  swept_sol: string;
};

export type Inviter = {
  invite_code: string;
  email?: string;
  clicks: number;
  registered: number;
  bought: number;
  access_via_friends: boolean;
};

export type SaleReport = {
  generated_at: string;
  totals: {
    sign_ups: number;
    tickets: number;
    tickets_by_tier: Record<Tier, number>;
    entries_via_friends: number;
    received_sol: string;
    swept_sol: string;
    sweep_fees_sol: string;
    waiting_sol: string;
    /**
     * SOL in payment wallets without a settled ticket (a payment refused for want of an
     * invitation, or short of the price), as the server last read them: the studio's to refund.
     */
    refundable_sol: string;
    refundable_wallets: number;
    /** Of those, the wallets of players without an inviter. */
    refundable_without_inviter: number;
  };
  funnel: { clicks: number; registered: number; bought: number };
  top_inviters: Inviter[];
  days: DayRow[];
};

/** The UTC day (YYYY-MM-DD) of an instant in ms. */
const dayOf = (ms: number | string): string => new Date(Number(ms)).toISOString().slice(0, 10);

/**
 * Builds the report from the store (read-only is enough), inside `runner` (one read
 * transaction, so every figure comes from the same moment).
 */
export async function saleReport(
  store: Store,
  runner: Runner,
  options: { top?: number; emails?: boolean; now?: number } = {},
): Promise<SaleReport> {
  const all = <T>(sql: string, ...params: unknown[]): Promise<T[]> =>
    store.raw<T>(runner, sql, params);

  const days = new Map<string, DayRow & { received: bigint; swept: bigint }>();
  const day = (key: string) => {
    let row = days.get(key);
    if (!row) {
      row = {
        day: key,
        sign_ups: 0,
        tickets: 0,
        early_bird: 0,
        before_launch: 0,
        after_launch: 0,
        entries_via_friends: 0,
        received_sol: '0',
        clicks: 0,
        registered_via_invite: 0,
        bought_via_invite: 0,
        swept_sol: '0',
        received: 0n,
        swept: 0n,
      };
      days.set(key, row);
    }
    return row;
  };

  for (const r of await all<{ at: number; invited: number | null }>(
    'SELECT created_at AS at, inviter_id AS invited FROM users',
  )) {
    day(dayOf(r.at)).sign_ups += 1;
    if (r.invited !== null) day(dayOf(r.at)).registered_via_invite += 1;
  }

  const tiers: Record<Tier, number> = { early_bird: 0, before_launch: 0, after_launch: 0 };
  let received = 0n;
  const paidWithoutSweep = new Map<number, bigint>();
  for (const r of await all<{
    id: number;
    at: number;
    tier: string | null;
    lamports: string | null;
    invited: number | null;
  }>(
    `SELECT id, ticket_paid_at AS at, ticket_tier AS tier,
       ticket_paid_lamports AS lamports, inviter_id AS invited
     FROM users WHERE ticket_paid_at IS NOT NULL`,
  )) {
    const row = day(dayOf(r.at));
    const lamports = BigInt(r.lamports ?? '0');
    row.tickets += 1;
    row.received += lamports;
    received += lamports;
    // A ticket settled before tiers were recorded was an Early Bird one (server/routes/payment.ts).
    const tier = (TIERS as readonly string[]).includes(r.tier ?? '')
      ? (r.tier as Tier)
      : 'early_bird';
    row[tier] += 1;
    tiers[tier] += 1;
    if (r.invited !== null) row.bought_via_invite += 1;
    paidWithoutSweep.set(r.id, lamports);
  }

  // Access through friends is granted by the settlement of the inviter's FRIENDS_FOR_ACCESS-th
  // friend's ticket: its day is the day of that ticket.
  const viaFriends = await all<{ id: number }>(
    "SELECT id FROM users WHERE user_access = 1 AND access_via = 'invites'",
  );
  for (const { id } of viaFriends) {
    const [at] = await all<{ at: number }>(
      `SELECT ticket_paid_at AS at FROM users
       WHERE inviter_id = ? AND ticket_paid_at IS NOT NULL ORDER BY ticket_paid_at LIMIT 1 OFFSET ?`,
      id,
      FRIENDS_FOR_ACCESS - 1,
    );
    if (at) day(dayOf(at.at)).entries_via_friends += 1;
  }

  for (const r of await all<{ at: number }>('SELECT at FROM invite_clicks'))
    day(dayOf(r.at)).clicks += 1;

  let swept = 0n;
  let fees = 0n;
  for (const r of await all<{ user_id: number; at: number; lamports: string; fee: string }>(
    `SELECT user_id, resolved_at AS at, lamports, fee_lamports AS fee
     FROM sweeps WHERE status = 'confirmed'`,
  )) {
    swept += BigInt(r.lamports);
    fees += BigInt(r.fee);
    day(dayOf(r.at)).swept += BigInt(r.lamports);
    paidWithoutSweep.delete(r.user_id);
  }
  const waiting = [...paidWithoutSweep.values()].reduce((sum, n) => sum + n, 0n);

  // Money that arrived without a ticket settling stays in its payment wallet (never swept).
  let refundable = 0n;
  let refundableWallets = 0;
  let refundableWithoutInviter = 0;
  for (const r of await all<{ lamports: string; invited: number | null }>(
    `SELECT payment_balance_lamports AS lamports, inviter_id AS invited
     FROM users WHERE ticket_paid_at IS NULL AND payment_balance_lamports <> '0'`,
  )) {
    const lamports = BigInt(r.lamports);
    if (lamports <= 0n) continue;
    refundable += lamports;
    refundableWallets += 1;
    if (r.invited === null) refundableWithoutInviter += 1;
  }

  const inviterRows = await all<
    Omit<Inviter, 'clicks' | 'registered' | 'bought'> & {
      email: string;
      clicks: number | string;
      registered: number | string;
      bought: number | string;
      access_via_friends: number | boolean;
    }
  >(
    `SELECT u.invite_code, u.email,
       (SELECT COUNT(*) FROM invite_clicks c WHERE c.inviter_id = u.id) AS clicks,
       (SELECT COUNT(*) FROM users f WHERE f.inviter_id = u.id) AS registered,
       (SELECT COUNT(*) FROM users f WHERE f.inviter_id = u.id AND f.ticket_paid_at IS NOT NULL)
         AS bought,
       (u.user_access = 1 AND u.access_via = 'invites') AS access_via_friends
     FROM users u
     WHERE EXISTS (SELECT 1 FROM invite_clicks c WHERE c.inviter_id = u.id)
        OR EXISTS (SELECT 1 FROM users f WHERE f.inviter_id = u.id)
     ORDER BY bought DESC, registered DESC, clicks DESC, u.invite_code
     LIMIT ?`,
    options.top ?? 10,
  );
  const inviters: Inviter[] = inviterRows.map(({ email, ...rest }) => ({
    invite_code: rest.invite_code,
    clicks: Number(rest.clicks),
    registered: Number(rest.registered),
    bought: Number(rest.bought),
    access_via_friends: Boolean(rest.access_via_friends),
    ...(options.emails ? { email } : {}),
  }));

  const count = async (sql: string) => Number((await all<{ n: number }>(sql))[0]?.n ?? 0);
  const dayRows = [...days.values()]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map(({ received: r, swept: s, ...row }) => ({
      ...row,
      received_sol: lamportsToSol(r),
      swept_sol: lamportsToSol(s),
    }));
  return {
    generated_at: new Date(options.now ?? Date.now()).toISOString(),
    totals: {
      sign_ups: await count('SELECT COUNT(*) AS n FROM users'),
      tickets: tiers.early_bird + tiers.before_launch + tiers.after_launch,
      tickets_by_tier: tiers,
      entries_via_friends: viaFriends.length,
      received_sol: lamportsToSol(received),
      swept_sol: lamportsToSol(swept),
      sweep_fees_sol: lamportsToSol(fees),
      waiting_sol: lamportsToSol(waiting),
      refundable_sol: lamportsToSol(refundable),
      refundable_wallets: refundableWallets,
      refundable_without_inviter: refundableWithoutInviter,
    },
    funnel: {
      clicks: await count('SELECT COUNT(*) AS n FROM invite_clicks'),
      registered: await count('SELECT COUNT(*) AS n FROM users WHERE inviter_id IS NOT NULL'),
      bought: await count(
        'SELECT COUNT(*) AS n FROM users WHERE inviter_id IS NOT NULL AND ticket_paid_at IS NOT NULL',
      ),
    },
    top_inviters: inviters,
    days: dayRows,
  };
}

/** Columns of a plain-text table, numbers right-aligned. */
export function textTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) =>
          i === 0 || Number.isNaN(Number(cell))
            ? cell.padEnd(widths[i]!)
            : cell.padStart(widths[i]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const DAY_COLUMNS: (keyof DayRow)[] = [
  'day',
  'sign_ups',
  'tickets',
  'early_bird',
  'before_launch',
  'after_launch',
  'entries_via_friends',
  'received_sol',
  'clicks',
  'registered_via_invite',
  'bought_via_invite',
  'swept_sol',
];

export function reportText(report: SaleReport, source: string): string {
  const t = report.totals;
  const f = report.funnel;
  const inviterHeader = ['invite code', 'clicks', 'registered', 'bought', 'entry via friends'];
  const withEmail = report.top_inviters.some((i) => i.email !== undefined);
  return [
    `Sale report of ${source} at ${report.generated_at}`,
    '',
    ...(
      [
        ['Sign-ups', t.sign_ups],
        [
          'Tickets bought',
          `${t.tickets} (Early Bird ${t.tickets_by_tier.early_bird}, before launch ${t.tickets_by_tier.before_launch}, after launch ${t.tickets_by_tier.after_launch})`,
        ],
        ['Entries through friends', t.entries_via_friends],
        ['SOL received', t.received_sol],
        ['SOL swept', `${t.swept_sol} (fees ${t.sweep_fees_sol})`],
        ['SOL waiting', t.waiting_sol],
        [
          'SOL refundable',
          `${t.refundable_sol} (${t.refundable_wallets} wallet(s) without a ticket, ${t.refundable_without_inviter} without an inviter)`,
        ],
      ] as const
    ).map(([label, value]) => `${label.padEnd(25)}${value}`),
    '',
    `Referral funnel: ${f.clicks} link clicks → ${f.registered} registered → ${f.bought} bought`,
    '',
    'Top inviters',
    textTable(
      withEmail ? [...inviterHeader, 'e-mail'] : inviterHeader,
      report.top_inviters.map((i) => [
        i.invite_code,
        i.clicks,
        i.registered,
        i.bought,
        i.access_via_friends ? 'yes' : 'no',
        ...(withEmail ? [i.email ?? ''] : []),
      ]),
    ),
    '',
    'Per day (UTC)',
    textTable(
      DAY_COLUMNS.map((c) => c.replace(/_/g, ' ')),
      report.days.map((d) => DAY_COLUMNS.map((c) => d[c])),
    ),
  ].join('\n');
}

export function reportCsv(report: SaleReport): string {
  const quote = (v: string | number) =>
    /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v);
  return [
    DAY_COLUMNS.join(','),
    ...report.days.map((d) => DAY_COLUMNS.map((c) => quote(d[c])).join(',')),
  ].join('\n');
}

async function main(args: string[]): Promise<void> {
  const known = new Set(['--json', '--csv', '--emails']);
  const unknown = args.filter((a) => !known.has(a) && !/^--top=\d+$/.test(a));
  if (unknown.length > 0) {
    console.error(
      `Unknown option ${unknown[0]}. Usage: npm run report [-- --json | --csv] [--emails] [--top=N]`,
    );
    process.exit(2);
  }
  const options = storeOptionsFromEnv(process.env, resolve(process.env.DATA_DIR || '.data'));
  const store = await openExistingStore({ ...options, readonly: true });
  try {
    const top = args.find((a) => a.startsWith('--top='));
    // One read transaction: every figure comes from the same moment of the database.
    const report = await store.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) =>
        saleReport(store, trx, {
          emails: args.includes('--emails'),
          top: top ? Number(top.slice(6)) : 10,
        }),
      );
    if (args.includes('--json')) console.log(JSON.stringify(report, null, 2));
    else if (args.includes('--csv')) console.log(reportCsv(report));
    else console.log(reportText(report, store.location));
  } finally {
    await store.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`report: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
