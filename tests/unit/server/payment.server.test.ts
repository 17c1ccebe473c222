import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../server/app';
import { createRpcClient, type SolanaRpc } from '../../../server/chain/rpcClient';
import { PAYMENT_WATCH_MS } from '../../../server/routes/payment';
import { lamportsToSol } from '../../../contract/lamports';
import {
  postApi,
  registerUser,
  startTestServer,
  walletBalance,
  type RegisteredUser,
} from '../../support/api';

let server: RunningServer;
let rpc: SolanaRpc;
let price: bigint;
/** The server's clock: it moves only when a test moves it. */
let clock = Date.now();

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  rpc = createRpcClient(`${server.url.replace(/\/+$/, '')}/rpc`);
  const init = await postApi(server.url, 'sess/init', {});
  const data = init.body.data as { public_data: { ticket_price_lamports: string } };
  price = BigInt(data.public_data.ticket_price_lamports);
});
afterAll(async () => {
  await server.close();
});

const balanceOf = (user: RegisteredUser) => walletBalance(server.url, user);
const userData = async (user: RegisteredUser) =>
  (await postApi(server.url, 'user/data', { session: user.sessionToken }, user.jwt)).body
    .user_data as RegisteredUser['userData'];

describe('user/tools/solana/blockhash', () => {
  it('answers the chain latest blockhash', async () => {
    const user = await registerUser(server.url, 'bh@example.com');
    const answer = await postApi(
      server.url,
      'user/tools/solana/blockhash',
      { session: user.sessionToken, data: { wallet_type: 'phantom' } },
      user.jwt,
    );
    expect(answer.status).toBe(200);
    const data = answer.body.data as { blockhash: string; lastValidBlockHeight: number };
    expect(answer.body.status).toBe('ok');
    expect(data.blockhash).toBe((await rpc.getLatestBlockhash()).blockhash);
    expect(data.lastValidBlockHeight).toBeGreaterThan(0);
  });

  it('refuses a call without a jwt', async () => {
    const answer = await postApi(server.url, 'user/tools/solana/blockhash', {
      data: { wallet_type: 'phantom' },
    });
    expect(answer.status).toBe(401);
  });
});

describe('user/wallet/balance', () => {
  it('grants access once the payment wallet holds the ticket price, idempotently', async () => {
    const user = await registerUser(server.url, 'payer@example.com');
    const before = await balanceOf(user);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      status: 'ok',
      access_granted: false,
      balance_lamports: '0',
    });

    await rpc.requestAirdrop(user.userData.user_payment_wallet, price - 1n);
    const short = await balanceOf(user);
    expect(short.body.access_granted).toBe(false);
    expect(short.body.balance_lamports).toBe(String(price - 1n));

    await rpc.requestAirdrop(user.userData.user_payment_wallet, 1n);
    const paid = await balanceOf(user);
    expect(paid.body).toMatchObject({ access_granted: true, balance_lamports: String(price) });
    expect((await userData(user)).user_access).toBe(1);
    const again = await balanceOf(user);
    expect(again.body.access_granted).toBe(true);
  });

  it('user/data of a player without a socket sees a payment sent from anywhere (no Refresh)', async () => {
    const user = await registerUser(server.url, 'no-socket@example.com');
    const shown = async () => {
      const data = await userData(user);
      return { access: data.user_access, balance: data.user_payment_wallet_balance };
    };
    // A third of the price first, seen by the look this user/data starts; until it is shown that look
    // is under way (and the server clock stands still, so no other look starts).
    const part = price / 3n;
    await rpc.requestAirdrop(user.userData.user_payment_wallet, part);
    expect((await shown()).access).toBe(0);
    await expect.poll(shown).toEqual({ access: 0, balance: lamportsToSol(part) });
    // The wallet is looked at after the answer, at most every PAYMENT_WATCH_MS: once that has
    // passed, the next user/data answers at once and starts a look that sees the rest.
    clock += PAYMENT_WATCH_MS;
    await rpc.requestAirdrop(user.userData.user_payment_wallet, price - part);
    expect(await shown()).toEqual({ access: 0, balance: lamportsToSol(part) });
    await expect.poll(shown).toEqual({ access: 1, balance: lamportsToSol(price) });
  });

  it('refuses another user wallet id', async () => {
    const a = await registerUser(server.url, 'a@example.com');
    const b = await registerUser(server.url, 'b@example.com');
    const answer = await postApi(
      server.url,
      'user/wallet/balance',
      {
        session: a.sessionToken,
        data: { wallet_id: b.userData.user_payment_wallet_data.wallet_id },
      },
      a.jwt,
    );
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('Wallet ID not found');
  });

  it('confirms invitees once each and gives the inviter access at 2 confirmed [§1.invite.entry]', async () => {
    const inviter = await registerUser(server.url, 'boss@example.com');
    const code = inviter.userData.user_invite_code;
    const first = await registerUser(server.url, 'first@example.com', code);
    const second = await registerUser(server.url, 'second@example.com', code);

    await rpc.requestAirdrop(first.userData.user_payment_wallet, price);
    await balanceOf(first);
    await balanceOf(first);
    let boss = await userData(inviter);
    expect(boss.user_ref_confirmed).toBe(1);
    expect(boss.user_access).toBe(0);

    await rpc.requestAirdrop(second.userData.user_payment_wallet, price);
    await balanceOf(second);
    boss = await userData(inviter);
    expect(boss.user_ref_confirmed).toBe(2);
    expect(boss.user_access).toBe(1);
  });

  it('pays with a web3.js transfer signed by the development wallet through /rpc', async () => {
    const user = await registerUser(server.url, 'web3@example.com');
    const dev = await postApi(server.url, 'dev/wallet', {});
    const payer = Keypair.fromSecretKey(Buffer.from(String(dev.body.secret_key), 'base64'));
    const bh = await postApi(
      server.url,
      'user/tools/solana/blockhash',
      { session: user.sessionToken, data: { wallet_type: 'phantom' } },
      user.jwt,
    );
    const { blockhash, lastValidBlockHeight } = bh.body.data as {
      blockhash: string;
      lastValidBlockHeight: number;
    };
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: new PublicKey(user.userData.user_payment_wallet),
        lamports: price,
      }),
    );
    tx.sign(payer);
    const signature = await rpc.sendTransaction(tx.serialize().toString('base64'));
    expect((await rpc.getSignatureStatuses([signature]))[0]).not.toBeNull();
    // Replaying the same wire transaction is refused by the chain.
    await expect(rpc.sendTransaction(tx.serialize().toString('base64'))).rejects.toThrow(
      /already been processed/,
    );
    expect((await balanceOf(user)).body.access_granted).toBe(true);
  });
});

describe('local chain persistence', () => {
  it('keeps balances across a restart of the server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'smw-chain-'));
    try {
      const target = Keypair.generate().publicKey.toBase58();
      const first = await startTestServer({ dataDir });
      await createRpcClient(`${first.url.replace(/\/+$/, '')}/rpc`).requestAirdrop(
        target,
        1_234_567_890n,
      );
      await first.close();
      const second = await startTestServer({ dataDir });
      const balance = await createRpcClient(`${second.url.replace(/\/+$/, '')}/rpc`).getBalance(
        target,
      );
      await second.close();
      expect(balance).toBe(1_234_567_890n);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
