import type { InputFrom } from 'xstate';
import type { appMachine } from '../../machines/app/app.machine';
import type { authMachine } from '../../machines/auth/auth.machine';
import type { invitationMachine } from '../../machines/invitation/invitation.machine';
import type { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import type { errorModalMachine } from '../../machines/errorModal/errorModal.machine';
import type { homeMachine } from '../../machines/home/home.machine';
import type { launchMachine } from '../../machines/launch/launch.machine';
import type { notificationsMachine } from '../../machines/notifications/notifications.machine';
import type { paymentMachine } from '../../machines/payment/payment.machine';
import type { realtimeMachine } from '../../machines/realtime/realtime.machine';
import type { sessionMachine } from '../../machines/session/session.machine';
import type { signInMachine } from '../../machines/signIn/signIn.machine';
import type { taglinesMachine } from '../../machines/taglines/taglines.machine';
import type { themeMachine } from '../../machines/theme/theme.machine';
import type { userDataMachine } from '../../machines/userData/userData.machine';
import type { StoredValues } from '../../machines/shared/stored';

/**
 * The input each machine's sandbox starts from in the visualiser (/__machines): what the app gives
 * it at boot for a visitor who has been here before (a stored session, an invite code and a theme,
 * no jwt), as JSON the sandbox's input field shows and the developer edits. Each entry is typed by
 * its machine's own input, so a change to an input type that the sample no longer meets fails the
 * typecheck; tests/unit/devtools/sampleInputs.test.ts checks that every machine has one and starts
 * with it.
 */
const STORED: StoredValues = {
  jwt: null,
  refreshToken: null,
  sessionToken: 'sample-session-token',
  theme: 'dark',
  codeInvite: 'FRIEND42',
};

const START_DATA = { language: 'en-GB', user_agent: 'Mozilla/5.0 (sample)' };

export type SampleInputs = {
  app: InputFrom<typeof appMachine>;
  auth: InputFrom<typeof authMachine>;
  copyFeedback: InputFrom<typeof copyFeedbackMachine>;
  errorModal: InputFrom<typeof errorModalMachine>;
  home: InputFrom<typeof homeMachine>;
  launch: InputFrom<typeof launchMachine>;
  notifications: InputFrom<typeof notificationsMachine>;
  payment: InputFrom<typeof paymentMachine>;
  realtime: InputFrom<typeof realtimeMachine>;
  session: InputFrom<typeof sessionMachine>;
  signIn: InputFrom<typeof signInMachine>;
  taglines: InputFrom<typeof taglinesMachine>;
  theme: InputFrom<typeof themeMachine>;
  userData: InputFrom<typeof userDataMachine>;
  invitation: InputFrom<typeof invitationMachine>;
};

export const SAMPLE_INPUTS: SampleInputs = {
  app: { stored: STORED, startData: START_DATA },
  auth: { stored: STORED },
  copyFeedback: undefined,
  errorModal: undefined,
  home: { stored: STORED },
  launch: { stored: STORED },
  notifications: { stored: STORED, queueCap: 5 },
  payment: { stored: STORED },
  realtime: { stored: STORED, rooms: ['notifications', 'chat', 'updates'] },
  session: { sessionToken: STORED.sessionToken, hasJwt: false, startData: START_DATA },
  signIn: { stored: STORED },
  taglines: undefined,
  theme: { stored: STORED },
  userData: { visible: true },
  invitation: { stored: STORED },
};

/** A machine's sample input as the sandbox's input field shows it ('' for a machine without one). */
export function sampleInputText(machine: string): string {
  const sample: unknown = (SAMPLE_INPUTS as Record<string, unknown>)[machine];
  return sample === undefined ? '' : JSON.stringify(sample);
}
