import { fromPromise, type ActorSystem, type AnyActorRef } from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import type {
  BlockhashOutput,
  CheckBalanceInput,
  CheckBalanceOutput,
  ConnectWalletInput,
  ConnectWalletOutput,
  SendTransferInput,
  SendTransferOutput,
  WalletKind,
} from '../../../machines/payment/payment.types';
import type { ApiClient } from '../../api/client';
import { connectWallet, sendTransfer } from '../../wallet/paymentActors';
import { preloadWeb3 } from '../../wallet/transfer';
import { findProvider, openInstallSite } from '../../wallet/providers';
import { watchOtherTabsPaying } from '../../platform/otherTabs';
import { systemTokenSource } from '../tokenSource';
import { watchPaymentTarget } from '../../../machines/payment/payment.target';

type SystemLike = ActorSystem<never> | { get(id: string): AnyActorRef | undefined };

/**
 * The payment machine with its browser parts provided: injected wallets, the transfer built
 * with web3.js on demand, the API calls, the install site and the clipboard.
 */
export function providePayment(api: ApiClient, writeClipboard: (text: string) => Promise<void>) {
  // Lives as long as the page: the player's other tabs may start paying at any time.
  const otherTabs = watchOtherTabsPaying();
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
            ticketTier: answer.ticket_tier,
          };
        },
      ),
      targetWatch: watchPaymentTarget,
      copyFeedback: copyFeedbackMachine.provide({
        actors: { writeClipboard: fromPromise(({ input }) => writeClipboard(input.text)) },
      }),
    },
    guards: {
      isWalletInstalled: (_, params) => findProvider(params.wallet) !== null,
      isPaidInAnotherTab: (_, params) =>
        params.output.accessGranted && otherTabs.isPayingElsewhere(),
    },
    actions: {
      openInstallSite: (_, params) => openInstallSite(params.wallet),
      preloadWalletCode: () => preloadWeb3(),
      announcePaying: () => otherTabs.announce(),
    },
  });
}
