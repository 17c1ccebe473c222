import { SYSTEM_IDS } from '../systemIds';
import type { SessionParentEvent } from '../session/session.types';
import type { PaymentMachine } from '../payment/payment.machine';
import type { UserDataMachine } from '../userData/userData.machine';
import type { InvitationMachine } from '../invitation/invitation.machine';
import type { StoredValues } from '../shared/stored';
import type { SessionStartData } from '../session/session.types';

/** Application error of §3: a flag plus text, with a code (e.g. `Init`). */
export type AppError = { code: string; text: string };

export type AppInput = {
  /** Browser storage read once at boot. */
  stored: StoredValues;
  /** language, user agent and utm values for sess/create. */
  startData: SessionStartData;
};

export type AppContext = AppInput & { error: AppError | null };

/**
 * The services only a signed-in player uses: the output of `loadMembers`, which loads their code
 * (a chunk of its own, outside the landing page's initial JS) and provides their browser parts.
 * The user-data service runs the realtime connection itself (its parent, which hears its facts).
 */
export type MemberServices = {
  payment: PaymentMachine;
  userData: UserDataMachine;
  invitation: InvitationMachine;
};

/** The member services' ids (and systemIds), in the order they are spawned. */
export const MEMBER_IDS = [SYSTEM_IDS.payment, SYSTEM_IDS.userData, SYSTEM_IDS.invitation] as const;
export type MemberId = (typeof MEMBER_IDS)[number];

export type AppEvent = SessionParentEvent | { type: 'app.retryMembers' };
