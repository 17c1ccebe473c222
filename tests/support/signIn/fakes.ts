/**
 * Test doubles for the sign-in machine: controllable api actors and a tiny system with
 * recorders standing in for the auth and notifications services.
 */
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  spawnChild,
  type ActorRefFrom,
  type EventObject,
} from 'xstate';
import type { AuthUserData } from '../../../machines/auth/auth.types';
import { EMPTY_STORED } from '../../../machines/shared/stored';
import { signInMachine } from '../../../machines/signIn/signIn.machine';
import type {
  SendCodeInput,
  SendCodeOutput,
  VerifyCodeInput,
  VerifyCodeOutput,
} from '../../../machines/signIn/signIn.types';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { deferred, type Deferred } from '../deferred';

export function userData(overrides: Partial<AuthUserData> = {}): AuthUserData {
  return {
    user_email: 'don@example.com',
    user_lvl: 1,
    user_access: 0,
    user_invite_code: 'DONCODE1',
    user_payment_wallet: 'PayWallet1111111111111111111111111111111111',
    user_payment_wallet_balance: '0',
    user_payment_wallet_data: { wallet_id: 'w-1' },
    user_ref_registered: 0,
    user_ref_confirmed: 0,
    user_data: { referral: { clicks: 0, registered: 0, confirmed: 0 } },
    ...overrides,
  };
}

export function session(overrides: Partial<AuthUserData> = {}): VerifyCodeOutput {
  return { jwt: 'jwt-1', refreshToken: 'refresh-1', userData: userData(overrides) };
}

/** Each call of a provided api actor: its input and the deferred that settles it. */
type Calls<I, O> = Array<{ input: I; result: Deferred<O> }>;

export function controllableSignIn() {
  const sendCalls: Calls<SendCodeInput, SendCodeOutput> = [];
  const verifyCalls: Calls<VerifyCodeInput, VerifyCodeOutput> = [];
  const machine = signInMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) => {
        const result = deferred<SendCodeOutput>();
        sendCalls.push({ input, result });
        return result.promise;
      }),
      verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(({ input }) => {
        const result = deferred<VerifyCodeOutput>();
        verifyCalls.push({ input, result });
        return result.promise;
      }),
    },
  });
  return { machine, sendCalls, verifyCalls };
}

/** A root with the sign-in service and recorders for the services it talks to. */
export function startSignInSystem(
  options: { codeInvite?: string | null; withBanner?: boolean } = {},
) {
  const { machine, sendCalls, verifyCalls } = controllableSignIn();
  const authEvents: EventObject[] = [];
  const bannerEvents: EventObject[] = [];
  const recorder = (sink: EventObject[]) =>
    fromCallback<EventObject>(({ receive }) => {
      receive((event) => {
        sink.push(event);
      });
    });
  const root = setup({
    actors: { signIn: machine, auth: recorder(authEvents), notifications: recorder(bannerEvents) },
  }).createMachine({
    entry: [
      spawnChild('auth', { id: 'auth', systemId: SYSTEM_IDS.auth }),
      spawnChild('notifications', {
        id: 'notifications',
        systemId: options.withBanner === false ? 'absentNotifications' : SYSTEM_IDS.notifications,
      }),
      spawnChild('signIn', {
        id: 'signIn',
        systemId: SYSTEM_IDS.signIn,
        input: { stored: { ...EMPTY_STORED, codeInvite: options.codeInvite ?? null } },
      }),
    ],
  });
  const rootActor = createActor(root).start();
  const signIn = rootActor.system.get(SYSTEM_IDS.signIn) as ActorRefFrom<typeof machine>;
  return { rootActor, signIn, sendCalls, verifyCalls, authEvents, bannerEvents };
}

/** Lets settled promises deliver their outcome to the actors. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}
