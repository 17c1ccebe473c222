/**
 * Injected wallet providers (Phantom, Solflare) as the page finds them. Detection only: no
 * @solana/web3.js here, so this module is cheap to load with the tab.
 */
import type { WalletKind } from '../../machines/payment/payment.types';

type PublicKeyLike = { toBase58?: () => string; toString(): string };

export type InjectedProvider = {
  isPhantom?: boolean;
  isSolflare?: boolean;
  isBraveWallet?: boolean;
  publicKey?: PublicKeyLike | null;
  connect(options?: unknown): Promise<unknown>;
  signAndSendTransaction(transaction: unknown, options?: unknown): Promise<unknown>;
};

type WalletWindow = Window & {
  phantom?: { solana?: InjectedProvider };
  solana?: InjectedProvider;
  solflare?: InjectedProvider;
  SolflareApp?: InjectedProvider;
  /** The development wallet of local builds (src/wallet/devWallet.ts), under its own name. */
  __smwLocalWallet?: InjectedProvider;
};

const isProvider = (value: unknown): value is InjectedProvider =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as InjectedProvider).connect === 'function' &&
  typeof (value as InjectedProvider).signAndSendTransaction === 'function';

export function findProvider(wallet: WalletKind, win: Window = window): InjectedProvider | null {
  const w = win as WalletWindow;
  if (wallet === 'local') return isProvider(w.__smwLocalWallet) ? w.__smwLocalWallet : null;
  if (wallet === 'phantom') {
    const injected = w.phantom?.solana;
    if (isProvider(injected) && injected.isPhantom) return injected;
    // Older Phantom injects only window.solana; Brave Wallet also claims isPhantom there.
    const legacy = w.solana;
    if (isProvider(legacy) && legacy.isPhantom && !legacy.isBraveWallet) return legacy;
    return null;
  }
  const solflare = w.solflare;
  if (isProvider(solflare) && solflare.isSolflare) return solflare;
  const app = w.SolflareApp;
  return isProvider(app) ? app : null;
}

const INSTALL_SITES: Record<Exclude<WalletKind, 'local'>, string> = {
  phantom: 'https://phantom.com/',
  solflare: 'https://solflare.com/',
};

/** Must run synchronously inside the click handler, before any await, or popups are blocked. */
export function openInstallSite(wallet: WalletKind): void {
  if (wallet === 'local') return; // nothing to install: the local build brings it
  window.open(INSTALL_SITES[wallet], '_blank', 'noopener,noreferrer');
}

const MOBILE = /Android|iPhone|iPad|iPod|Mobile/i;

/**
 * On a phone without an injected wallet: a link that opens this page inside the Phantom app's
 * browser, where the wallet is injected. Null elsewhere.
 */
export function phantomBrowseLink(win: Window = window): string | null {
  if (!MOBILE.test(win.navigator.userAgent)) return null;
  if (findProvider('phantom', win) || findProvider('solflare', win)) return null;
  const url = encodeURIComponent(win.location.href);
  const ref = encodeURIComponent(win.location.origin);
  return `https://phantom.app/ul/browse/${url}?ref=${ref}`;
}

export function publicKeyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const key = value as PublicKeyLike;
    if (typeof key.toBase58 === 'function') return key.toBase58();
    const text = key.toString();
    if (text !== '[object Object]') return text;
  }
  return '';
}
