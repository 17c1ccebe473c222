import type { SnapshotFrom } from 'xstate';
import type { SessionMachine } from './session.machine';
import { DEFAULT_OLD_PRICE, DEFAULT_TICKET_PRICE } from '../../contract/spec';
import { percentOff, solToLamports, validPrice } from '../../contract/money';

export type SessionSnapshot = SnapshotFrom<SessionMachine>;

export const selectSessionToken = (s: SessionSnapshot): string => s.context.sessionToken ?? '';

/** Ticket price in SOL (decimal string): ticket_price, else price, else 0.22 (§9). */
export const selectTicketPrice = (s: SessionSnapshot): string =>
  validPrice(s.context.publicData.ticket_price ?? s.context.publicData.price, DEFAULT_TICKET_PRICE);
/** Old, crossed-out price in SOL: old_price, else 0.55 (§9). */
export const selectOldPrice = (s: SessionSnapshot): string =>
  validPrice(s.context.publicData.old_price, DEFAULT_OLD_PRICE);
/** Percent off computed from the two prices (0.22 vs 0.55 → 60). */
export const selectDiscountPercent = (s: SessionSnapshot): number =>
  percentOff(solToLamports(selectOldPrice(s)) ?? 0n, solToLamports(selectTicketPrice(s)) ?? 0n);
/** The ticket price in lamports as a decimal integer string (1e9 per SOL). */
export const selectTicketPriceLamports = (s: SessionSnapshot): string =>
  String(solToLamports(selectTicketPrice(s)) ?? 0n);
