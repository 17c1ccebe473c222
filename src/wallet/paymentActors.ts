/**
 * The wallet side of paying: the injected (or local) wallet's connect and sign-and-send, the
 * transfer built with web3.js on demand. src/app/provide/payment.ts wires them into the payment
 * machine with the API calls, the install site and the clipboard.
 */
import {
  PAYMENT_ERRORS,
  type ConnectWalletOutput,
  type SendTransferInput,
  type SendTransferOutput,
  type WalletKind,
} from '../../machines/payment/payment.types';
import { classifyWalletError, walletFailed } from './errors';
import { findProvider, publicKeyText } from './providers';
import { buildTransfer } from './transfer';

// Development and local-mode builds only (`vite build --mode localsite`, what `npm start` and the
// browser tests serve): the funded local-chain wallet. The production build drops this branch and
// never emits the module. Not while pre-rendering (no window in Node).
if (
  (import.meta.env.MODE === 'localsite' || import.meta.env.DEV) &&
  typeof window !== 'undefined'
) {
  // Without a server (gone while the page loads) the tool is simply absent: its button then
  // answers as for any missing wallet, and no error interrupts the player.
  void import('./devWallet').then(
    (m) => m.installDevWallet(),
    (error: unknown) => console.warn('[wallet] the local test wallet could not load', error),
  );
}

export async function connectWallet(wallet: WalletKind): Promise<ConnectWalletOutput> {
  const provider = findProvider(wallet);
  if (!provider) throw walletFailed(PAYMENT_ERRORS.notDetected(wallet));
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
  if (!provider) throw walletFailed(PAYMENT_ERRORS.notDetected(input.wallet));
  let tx;
  try {
    tx = await buildTransfer(input);
  } catch (error) {
    console.warn('[wallet] could not build the transfer', error);
    const network = error instanceof Error && /fetch|import|chunk/i.test(error.message);
    throw walletFailed(network ? PAYMENT_ERRORS.network : PAYMENT_ERRORS.failed);
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
