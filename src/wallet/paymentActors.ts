/**
 * The payment machine with its browser parts provided: injected wallets, the transfer built
 * with web3.js on demand, the API calls, the install site and the clipboard.
 */
import { fromPromise, type ActorSystem, type AnyActorRef } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { paymentMachine } from '../../machines/payment/payment.machine';
import {
  PAYMENT_ERRORS,
  type BlockhashOutput,
  type CheckBalanceInput,
  type CheckBalanceOutput,
  type ConnectWalletInput,
  type ConnectWalletOutput,
  type PaymentFailure,
  type SendTransferInput,
  type SendTransferOutput,
  type WalletKind,
} from '../../machines/payment/payment.types';
import type { ApiClient } from '../api/client';
import { systemTokenSource } from '../app/tokenSource';
import { classifyWalletError } from './errors';
import { findProvider, openInstallSite, publicKeyText } from './providers';
import { buildTransfer } from './transfer';

// Development and local-mode builds only (`vite build --mode localsite`, what `npm start` and the
// browser tests serve): the funded local-chain wallet. The production build drops this branch and
// never emits the module. Not while pre-rendering (no window in Node).
if (
  (import.meta.env.MODE === 'localsite' || import.meta.env.DEV) &&
  typeof window !== 'undefined'
) {
  void import('./devWallet').then((m) => m.installDevWallet());
}

type SystemLike = ActorSystem<never> | { get(id: string): AnyActorRef | undefined };

const failure = (f: PaymentFailure): PaymentFailure => f;

export async function connectWallet(wallet: WalletKind): Promise<ConnectWalletOutput> {
  const provider = findProvider(wallet);
  if (!provider) throw failure({ kind: 'failed', ...PAYMENT_ERRORS.notDetected(wallet) });
  let result: unknown;
  try {
    result = await provider.connect();
  } catch (error) {
    throw classifyWalletError(error);
  }
  const fromResult =
    typeof result === 'object' && result !== null && 'publicKey' in result
      ? publicKeyText(result.publicKey)
      : '';
  return { publicKey: fromResult || publicKeyText(provider.publicKey) };
}

export async function sendTransfer(input: SendTransferInput): Promise<SendTransferOutput> {
  const provider = findProvider(input.wallet);
  if (!provider) throw failure({ kind: 'failed', ...PAYMENT_ERRORS.notDetected(input.wallet) });
  let tx;
  try {
    tx = await buildTransfer(input);
  } catch (error) {
    console.warn('[wallet] could not build the transfer', error);
    const network = error instanceof Error && /fetch|import|chunk/i.test(error.message);
    throw failure({
      kind: 'failed',
      ...(network ? PAYMENT_ERRORS.network : PAYMENT_ERRORS.failed),
    });
  }
  try {
    const result = await provider.signAndSendTransaction(tx);
    // Phantom answers { signature }, Solflare may answer the signature string itself.
    const signature =
      typeof result === 'string'
        ? result
        : typeof result === 'object' && result !== null && 'signature' in result
          ? String(result.signature)
          : '';
    return { signature };
  } catch (error) {
    throw classifyWalletError(error);
  }
}

export function providePayment(api: ApiClient, writeClipboard: (text: string) => Promise<void>) {
  return paymentMachine.provide({
    actors: {
      connectWallet: fromPromise<ConnectWalletOutput, ConnectWalletInput>(({ input }) =>
        connectWallet(input.wallet),
      ),
      getBlockhash: fromPromise<BlockhashOutput, { wallet: WalletKind }>(
        async ({ input, signal, system }) => {
          const answer = await api.call(
            'blockhash',
            { data: { wallet_type: input.wallet } },
            { signal, tokens: systemTokenSource(system as SystemLike) },
          );
          return {
            blockhash: answer.data.blockhash,
            lastValidBlockHeight: answer.data.lastValidBlockHeight,
          };
        },
      ),
      sendTransfer: fromPromise<SendTransferOutput, SendTransferInput>(({ input }) =>
        sendTransfer(input),
      ),
      checkBalance: fromPromise<CheckBalanceOutput, CheckBalanceInput>(
        async ({ input, signal, system }) => {
          const answer = await api.call(
            'walletBalance',
            { data: { wallet_id: input.walletId } },
            { signal, tokens: systemTokenSource(system as SystemLike) },
          );
          return {
            accessGranted: answer.access_granted,
            balance: answer.balance,
            balanceLamports: answer.balance_lamports,
            accessVia: answer.access_via,
            paidLamports: answer.paid_lamports,
          };
        },
      ),
      copyFeedback: copyFeedbackMachine.provide({
        actors: { writeClipboard: fromPromise(({ input }) => writeClipboard(input.text)) },
      }),
    },
    guards: {
      isWalletInstalled: (_, params) => findProvider(params.wallet) !== null,
    },
    actions: {
      openInstallSite: (_, params) => openInstallSite(params.wallet),
    },
  });
}
