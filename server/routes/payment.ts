/**
 * Paying for a ticket (§4 Payment, §7): the blockhash the page builds its transfer with, and the
 * balance check that grants access once the payment wallet holds the ticket price. The server
 * confirms payment from the chain balance only, never from a signature the page reports.
 *
 * Also sets up the chain: a real node when SOLANA_RPC_URL is set, otherwise the local LiteSVM
 * chain answering JSON-RPC at POST /rpc. The routes always go through the RPC client, so both
 * cases run the same code.
 */
import { join } from 'node:path';
import { CALLS } from '../../contract/api';
import { FRIENDS_FOR_ACCESS } from '../../contract/spec';
import { TIER_WIRE, tierAt } from '../../contract/calendar';
import { createLocalChain, type LocalChain } from '../chain/localChain';
import { createRpcClient, type SolanaRpc } from '../chain/rpcClient';
import { REHEARSAL_KEY_FILE } from '../chain/airdrop';
import { loadSecret } from '../secrets';
import { createRpcFacade } from '../chain/rpcFacade';
import type { ApiRoute, ServerContext, ServerPlugin } from '../context';
import { HttpError } from '../http';
import { registerRpcRoute } from '../chain/rpcRoute';
import { lamportsToSol } from '../../contract/lamports';
import { publicData } from '../pricing';
import { devWalletRoute } from '../devWallet';
import type { UserRow } from '../users';
import { invitationRoutes, lacksInvitation } from '../invitation';

declare module '../context' {
  interface ServerServices {
    /** The in-process chain (absent when SOLANA_RPC_URL points at a real node). */
    chain: LocalChain;
    /** JSON-RPC client of the chain the payment routes use. */
    rpc: SolanaRpc;
  }
}

/**
 * Invitation codes that come with a confirmed Early Bird ticket (§9). They are the ticket's
 * extra: access through friends' tickets gives entry, not the ticket, so it issues none.
 */
export const INVITATION_CODES_PER_TICKET = 999;

const WALLET_ID_NOT_FOUND = 'Wallet ID not found';

function rpcOf(ctx: ServerContext): SolanaRpc {
  const rpc = ctx.services.rpc;
  if (!rpc) throw new HttpError(503, 'Network connection failed');
  return rpc;
}

function ticketPriceLamports(ctx: ServerContext, at = ctx.now()): bigint {
  return BigInt(
    publicData(at, ctx.config.calendar, ctx.config.ticketPriceSol).ticket_price_lamports,
  );
}

/**
 * A ticket is priced when its transfer lands, not when the server next looks: a payment of the
 * price shown, landed before a tier ended, is that tier's ticket if the first balance check comes
 * up to PRICE_GRACE_MS after the end (an unwatched page, a player who pressed Refresh late). The
 * server sees a landed payment within seconds while the player's page is open (the payment
 * watch), so the grace only covers checks that come late (docs/spec-readings.md).
 */
const PRICE_GRACE_MS = 15 * 60_000;

/** The instant whose price `balance` pays: now, else the start of the grace; null for neither. */
function pricedAt(ctx: ServerContext, balance: bigint): number | null {
  const now = ctx.now();
  if (balance >= ticketPriceLamports(ctx, now)) return now;
  const earlier = now - PRICE_GRACE_MS;
  return balance >= ticketPriceLamports(ctx, earlier) ? earlier : null;
}

/** The Early Bird's extra codes for a ticket of `tier` (a ticket settled before tiers had them). */
export const codesForTier = (tier: string | null): number =>
  tier === null || tier === TIER_WIRE.earlyBird ? INVITATION_CODES_PER_TICKET : 0;

/**
 * Grants access when the balance reaches the price: one transaction (server/users.ts), so a
 * crash never leaves a ticket paid without access; idempotent, so the inviter is credited once
 * whatever the number of calls. The events go out after it commits. A player the invitation
 * rule asks an inviter of (server/invitation.ts) is not settled: the SOL stays in the payment
 * wallet, which the sale report lists as refundable, and settles once an inviter is named.
 */
async function settleTicket(ctx: ServerContext, user: UserRow, balance: bigint): Promise<void> {
  const userId = user.id;
  const at = pricedAt(ctx, balance);
  if (at === null) return;
  if (lacksInvitation(ctx, user, at)) return;
  const tier = TIER_WIRE[tierAt(ctx.config.calendar, at)];
  const settled = await ctx.users.settleTicket(
    userId,
    balance,
    tier,
    codesForTier(tier),
    FRIENDS_FOR_ACCESS,
  );
  if (!settled) return;
  ctx.events.emit('ticket.settled', { userId, tier, amountLamports: balance.toString() });
  if (settled.codesIssued > 0)
    ctx.events.emit('codes.issued', { userId, count: settled.codesIssued });
  if (settled.accessGranted)
    ctx.events.emit('access.granted', {
      userId,
      via: 'ticket',
      amountLamports: balance.toString(),
    });
  const { inviterId } = settled;
  if (inviterId === null) return;
  ctx.events.emit('invite.confirmed', { inviterId, userId });
  if (settled.inviterGranted)
    ctx.events.emit('access.granted', { userId: inviterId, via: 'invites' });
}

const blockhashRoute: ApiRoute<{ data: { wallet_type: string } }> = {
  method: 'POST',
  path: CALLS.blockhash.path,
  protected: true,
  request: CALLS.blockhash.request,
  response: CALLS.blockhash.response,
  async handle(ctx) {
    try {
      const { blockhash, lastValidBlockHeight } = await rpcOf(ctx).getLatestBlockhash();
      return { status: 'ok', data: { blockhash, lastValidBlockHeight } };
    } catch (error) {
      ctx.log.error(`blockhash: ${error instanceof Error ? error.message : String(error)}`);
      throw new HttpError(502, 'Failed to get blockhash from server');
    }
  },
};

/**
 * Reads a user's payment wallet from the chain, stores the balance, tells the user when it
 * changed and settles the ticket when it reaches the price. Shared by the balance route and the
 * payment watch.
 */
async function readBalance(ctx: ServerContext, userId: number): Promise<bigint | null> {
  const user = await ctx.users.findById(userId);
  if (!user) return null;
  const balance = await rpcOf(ctx).getBalance(user.payment_wallet_address);
  await ctx.users.setPaymentBalance(user.id, balance);
  if (user.payment_balance_lamports !== balance.toString())
    ctx.events.emit('balance.changed', { userId: user.id, lamports: balance.toString() });
  await settleTicket(ctx, user, balance);
  return balance;
}

/**
 * How often the server looks at the payment wallets of players whose page is open (an open,
 * signed-in socket) and who have no access yet: a payment sent from any wallet (another app,
 * a phone, the chain directly) is seen without the player pressing Refresh, and the player and
 * their inviter hear of it through their sockets.
 */
export const PAYMENT_WATCH_MS = 2_000;

/**
 * One pass over the watched wallets at a time; a failing chain read waits for the next pass.
 * Stopping waits for the pass in flight (the server closes its database after).
 */
function startPaymentWatch(ctx: ServerContext, intervalMs = PAYMENT_WATCH_MS): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const pass = async () => {
    for (const userId of ctx.services.realtime?.connectedUserIds() ?? []) {
      if (stopped) return;
      const user = await ctx.users.findById(userId);
      if (!user || user.user_access === 1) continue;
      await readBalance(ctx, userId).catch((error: unknown) =>
        ctx.log.warn(`payment watch: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  };
  const timer = setInterval(() => {
    inFlight ??= pass()
      .catch((error: unknown) => ctx.log.error(`payment watch: ${String(error)}`))
      .finally(() => {
        inFlight = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await inFlight;
  };
}

/**
 * A player without access whose page has no socket (live updates lost or given up) is not in the
 * watch above, but their page asks user/data on its own (every few seconds while the socket is
 * down): such a read starts a look at their payment wallet, so a payment sent from anywhere is
 * still seen without Refresh, by the page's next user/data. The answer never waits for the chain;
 * one look per player at a time and at most one per PAYMENT_WATCH_MS; a failing read is logged.
 */
export function lookAtUnwatchedPayment(ctx: ServerContext, user: UserRow): void {
  if (user.user_access === 1) return;
  const userId = user.id;
  if (ctx.services.realtime?.connectedUserIds().includes(userId)) return;
  const looks = lastLooks.get(ctx) ?? new Map<number, number>();
  lastLooks.set(ctx, looks);
  if (ctx.now() - (looks.get(userId) ?? -Infinity) < PAYMENT_WATCH_MS) return;
  looks.set(userId, ctx.now());
  void readBalance(ctx, userId)
    .catch((error: unknown) =>
      ctx.log.warn(`user data: ${error instanceof Error ? error.message : String(error)}`),
    )
    .finally(() => looks.set(userId, ctx.now()));
}
/** Per server: when each player's wallet was last looked at for user/data. */
const lastLooks = new WeakMap<ServerContext, Map<number, number>>();

const balanceRoute: ApiRoute<{ data: { wallet_id: string } }> = {
  method: 'POST',
  path: CALLS.walletBalance.path,
  protected: true,
  request: CALLS.walletBalance.request,
  response: CALLS.walletBalance.response,
  async handle(ctx, req) {
    const user = req.userId === null ? undefined : await ctx.users.findById(req.userId);
    // Only the caller's own payment wallet: another user's wallet id reads as unknown.
    if (!user || req.body.data.wallet_id !== user.payment_wallet_id)
      throw new HttpError(404, WALLET_ID_NOT_FOUND);
    let balance: bigint;
    try {
      balance = (await readBalance(ctx, user.id)) ?? 0n;
    } catch (error) {
      ctx.log.error(`balance: ${error instanceof Error ? error.message : String(error)}`);
      throw new HttpError(502, 'Failed to refresh balance');
    }
    const after = await ctx.users.findById(user.id);
    const granted = after?.user_access === 1;
    return {
      status: 'ok',
      access_granted: granted,
      balance: lamportsToSol(balance),
      balance_lamports: balance.toString(),
      ...(granted && after.access_via ? { access_via: after.access_via } : {}),
      ...(granted && after.ticket_paid_lamports
        ? { paid_lamports: after.ticket_paid_lamports }
        : {}),
      ...(granted && after.ticket_tier ? { ticket_tier: after.ticket_tier } : {}),
    };
  },
};

export const paymentPlugin: ServerPlugin = {
  name: 'payment',
  async setup(ctx, host) {
    const repaired = await ctx.users.repairSettlements(codesForTier, FRIENDS_FOR_ACCESS);
    if (repaired > 0)
      ctx.log.warn(
        `Settlement repair: ${repaired} account(s) left half-settled by an older version now have their access and codes`,
      );
    if (!ctx.config.rpcUrl) {
      const chain = createLocalChain({
        snapshotFile: join(ctx.config.dataDir, 'chain.bin'),
        warn: (message) => ctx.log.warn(message),
      });
      host.onClose(() => chain.close());
      const development = ctx.config.mode === 'development';
      const facade = createRpcFacade(chain, {
        testControls: development,
        // A production rehearsal funds its test wallets with `npm run chain -- airdrop`, which
        // reads this key from the data folder (server/chain/airdrop.ts).
        ...(development
          ? {}
          : {
              rehearsalKey: loadSecret(ctx.config.dataDir, REHEARSAL_KEY_FILE).toString(
                'base64url',
              ),
            }),
      });
      ctx.services.chain = chain;
      registerRpcRoute(host.fastify, facade);
    }
    // Resolved lazily: the local facade's URL is known only once the server listens.
    let client: SolanaRpc | undefined;
    const lazy = (): SolanaRpc => (client ??= createRpcClient(ctx.rpcUrl()));
    ctx.services.rpc = {
      getLatestBlockhash: () => lazy().getLatestBlockhash(),
      getBalance: (pubkey) => lazy().getBalance(pubkey),
      requestAirdrop: (pubkey, lamports) => lazy().requestAirdrop(pubkey, lamports),
      getSignatureStatuses: (signatures) => lazy().getSignatureStatuses(signatures),
      sendTransaction: (wire) => lazy().sendTransaction(wire),
    };
    host.addRoute(blockhashRoute as ApiRoute);
    for (const route of invitationRoutes(async (c, userId) => void (await readBalance(c, userId))))
      host.addRoute(route as ApiRoute);
    host.addRoute(balanceRoute as ApiRoute);
    host.onClose(startPaymentWatch(ctx));
    if (ctx.config.mode === 'development' && !ctx.config.rpcUrl)
      host.addRoute(devWalletRoute as ApiRoute);
  },
};
