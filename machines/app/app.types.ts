import type { SessionParentEvent } from '../session/session.types';
import type { PaymentMachine } from '../payment/payment.machine';
import type { RealtimeMachine } from '../realtime/realtime.machine';
import type { UserDataEvent } from '../userData/userData.types';
import type { UserDataMachine } from '../userData/userData.machine';
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

export type AppContext = {
  stored: StoredValues;
  startData: SessionStartData;
  error: AppError | null;
  /** The member services (payment, realtime) are running. */
  membersRunning: boolean;
};

/**
 * The services only a signed-in player uses, provided by the composition root once their code
 * has loaded (a chunk of its own, outside the landing page's initial JS).
 */
export type MemberServices = {
  payment: PaymentMachine;
  realtime: RealtimeMachine;
  userData: UserDataMachine;
};

/** Facts the realtime service tells the user-data service; the app machine passes them on. */
export type MemberFact = Extract<
  UserDataEvent,
  { type: 'userData.changed' | 'userData.live' | 'userData.notLive' }
>;

export type AppEvent =
  SessionParentEvent | ({ type: 'app.membersLoaded' } & MemberServices) | MemberFact;
