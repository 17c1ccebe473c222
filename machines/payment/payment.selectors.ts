import { TIER_ACCESS_LEVEL, tierOfWire, type TicketTier } from '../../contract/calendar';
import { lamportsToSol, lamportsToSolFixed } from '../../contract/lamports';
import type { SnapshotFrom } from 'xstate';
import type { PaymentMachine } from './payment.machine';
import type { PayStep, WalletKind } from './payment.types';

export type PaymentSnapshot = SnapshotFrom<PaymentMachine>;

/** A wallet approval or the blockhash is in flight: both send buttons are disabled (§2). */
export const selectIsBusy = (s: PaymentSnapshot): boolean => s.hasTag('busy');
/**
 * Every pay button is disabled from the press until the payment is settled or given up: while
 * the wallet connects and approves (§2) and while the sent transfer is being confirmed.
 */
export const selectPayButtonsDisabled = (s: PaymentSnapshot): boolean =>
  s.hasTag('busy') || s.hasTag('confirming');
/** Where the payment started with `wallet` stands (null for the buttons not pressed). */
export const selectPayStep = (s: PaymentSnapshot, wallet: WalletKind): PayStep | null => {
  if (s.context.wallet !== wallet) return null;
  if (s.matches({ open: 'connecting' })) return 'connecting';
  if (s.hasTag('busy')) return 'approving';
  if (s.hasTag('confirming')) return 'confirming';
  return null;
};
export const selectIsRefreshing = (s: PaymentSnapshot): boolean =>
  s.hasTag('refreshing') || s.hasTag('confirming');
export const selectShowCancelled = (s: PaymentSnapshot): boolean =>
  s.matches({ open: { idle: 'cancelled' } });
export const selectIsUnconfirmed = (s: PaymentSnapshot): boolean =>
  s.matches({ open: { idle: 'unconfirmed' } });
export const selectShowQr = (s: PaymentSnapshot): boolean => s.matches({ open: 'qr' });
const selectIsGranted = (s: PaymentSnapshot): boolean => s.matches({ open: 'granted' });
/** Friends' tickets granted access while the tab was open (no receipt, its own message). */
const selectIsGrantedByFriends = (s: PaymentSnapshot): boolean =>
  s.matches({ open: { granted: 'byFriends' } });
export const selectShowPurchasedModal = (s: PaymentSnapshot): boolean =>
  s.matches({ open: { granted: 'celebrating' } });
/** The moment of access through friends: its modal is open. */
export const selectShowFriendsModal = (s: PaymentSnapshot): boolean =>
  s.matches({ open: { granted: { byFriends: 'celebrating' } } });
/** The player has access: the user data says so, or this tab saw it granted. */
export const selectHasTicketAccess = (s: PaymentSnapshot): boolean =>
  s.context.target?.hasAccess === true || selectIsGranted(s);
/** The access came through friends' tickets: in the user data, or granted so in this tab. */
export const selectAccessViaFriends = (s: PaymentSnapshot): boolean =>
  s.context.target?.byFriends === true || selectIsGrantedByFriends(s);
/** Access arrived while this tab was open (not restored at load): the tab celebrates it. */
export const selectJustGranted = (s: PaymentSnapshot): boolean =>
  selectShowPurchasedModal(s) || selectIsGrantedByFriends(s);
/** Balance in SOL (decimal string) last read from the server, or the user data's. */
export const selectBalance = (s: PaymentSnapshot): string => s.context.balance ?? '0';
const selectPaidLamports = (s: PaymentSnapshot): string =>
  s.context.paidLamports ?? s.context.target?.priceLamports ?? '0';
/** The amount the receipt shows: what the chain showed received, 2 decimals ('0.22'). */
export const selectPaidSol = (s: PaymentSnapshot): string => {
  const lamports = selectPaidLamports(s);
  return /^\d+$/.test(lamports) ? lamportsToSolFixed(BigInt(lamports), 2) : '0.00';
};
/** The play wallet's address to pay to ('' until the user data has it). */
export const selectPaymentAddress = (s: PaymentSnapshot): string => s.context.target?.address ?? '';
/**
 * The Solana Pay transfer request of the QR code: the play wallet, the exact price, the game as
 * the label and the ticket's tier as the message.
 */
export const selectSolanaPayUrl = (s: PaymentSnapshot, tier: TicketTier): string => {
  const target = s.context.target;
  const lamports = target && /^\d+$/.test(target.priceLamports) ? BigInt(target.priceLamports) : 0n;
  return `solana:${target?.address ?? ''}?amount=${lamportsToSol(lamports)}&label=${encodeURIComponent('Solana Mafia Wars')}&message=${encodeURIComponent(`${TIER_ACCESS_LEVEL[tier]} ticket`)}`;
};
/** The tier of the ticket this tab saw settled (the receipt's access level), when named. */
export const selectPaidTier = (s: PaymentSnapshot): TicketTier | null =>
  tierOfWire(s.context.paidTier ?? undefined);
