import { assign, fromPromise, sendParent, sendTo, setup } from 'xstate';
import { isNetworkError, serverMessageOf } from '../shared/callError';
import { SYSTEM_IDS } from '../systemIds';
import { REQUIRED_VERSION, SESSION_MESSAGES } from './session.messages';
import type {
  SessCreateInput,
  SessCreateOutput,
  SessInitOutput,
  SessLoadInput,
  SessionContext,
  SessionInput,
  SessionParentEvent,
  UserDataOutput,
} from './session.types';
import type { AuthEvent } from '../auth/auth.types';

/**
 * Session bootstrap (§4 Session, §8): sess/init and the version check, then the stored session
 * is loaded (a failure removes it and creates a new one) or a new one is created, then user/data
 * when a jwt was stored. It tells its parent `session.loaded` or `session.failed` (code `Init`)
 * and stays alive afterwards, holding public_data for the pages.
 */
function failureText(error: unknown): string {
  if (isNetworkError(error)) return SESSION_MESSAGES.connect;
  return serverMessageOf(error) ?? SESSION_MESSAGES.sessionFailed;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
  },
  actors: {
    sessInit: fromPromise<SessInitOutput>(async () => {
      throw new Error('sessInit not provided');
    }),
    sessLoad: fromPromise<unknown, SessLoadInput>(async () => {
      throw new Error('sessLoad not provided');
    }),
    sessCreate: fromPromise<SessCreateOutput, SessCreateInput>(async () => {
      throw new Error('sessCreate not provided');
    }),
    userData: fromPromise<UserDataOutput>(async () => {
      throw new Error('userData not provided');
    }),
  },
  actions: {
    /** Writes the session token to browser storage (provided by src/main.tsx). */
    persistSessionToken: (_, _params: { sessionToken: string }) => {},
    /** Removes the stored session token (provided by src/main.tsx). */
    removeStoredSessionToken: () => {},
    storeInit: assign((_, params: SessInitOutput) => ({
      version: params.version,
      publicData: params.data.public_data,
    })),
    forgetSessionToken: assign({ sessionToken: null }),
    storeNewSession: assign((_, params: { sessionToken: string }) => ({
      sessionToken: params.sessionToken,
      cookieConsentNeeded: true,
    })),
    setErrorText: assign({ errorText: (_, params: { text: string }) => params.text }),
    handUserDataToAuth: sendTo(
      ({ system }) => system.get(SYSTEM_IDS.auth),
      (_, params: UserDataOutput): AuthEvent => ({
        type: 'auth.userLoaded',
        userData: params.user_data,
      }),
    ),
    reportLoaded: sendParent((): SessionParentEvent => ({ type: 'session.loaded' })),
    reportFailed: sendParent(({ context }): SessionParentEvent => ({
      type: 'session.failed',
      code: 'Init',
      text: context.errorText ?? SESSION_MESSAGES.sessionFailed,
    })),
  },
  guards: {
    isRequiredVersion: (_, params: { version: string }) => params.version === REQUIRED_VERSION,
    hasStoredSessionToken: ({ context }) => Boolean(context.sessionToken),
    hasJwt: ({ context }) => context.hasJwt,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionToken: input.sessionToken || null,
    hasJwt: input.hasJwt,
    startData: input.startData,
    version: null,
    publicData: {},
    cookieConsentNeeded: false,
    errorText: null,
  }),
  initial: 'initializing',
  states: {
    initializing: {
      invoke: {
        id: 'sessInit',
        src: 'sessInit',
        onDone: [
          {
            guard: {
              type: 'isRequiredVersion',
              params: ({ event }) => ({ version: event.output.version }),
            },
            target: 'choosingSession',
            actions: { type: 'storeInit', params: ({ event }) => event.output },
          },
          {
            target: 'failed',
            actions: {
              type: 'setErrorText',
              params: { text: SESSION_MESSAGES.expiredVersion(REQUIRED_VERSION) },
            },
          },
        ],
        onError: {
          target: 'failed',
          actions: {
            type: 'setErrorText',
            params: ({ event }) => ({ text: failureText(event.error) }),
          },
        },
      },
    },
    choosingSession: {
      always: [
        { guard: 'hasStoredSessionToken', target: 'loadingSession' },
        { target: 'creatingSession' },
      ],
    },
    loadingSession: {
      invoke: {
        id: 'sessLoad',
        src: 'sessLoad',
        input: ({ context }) => ({ session: context.sessionToken ?? '' }),
        onDone: { target: 'checkingUser' },
        onError: {
          target: 'creatingSession',
          actions: ['forgetSessionToken', 'removeStoredSessionToken'],
        },
      },
    },
    creatingSession: {
      invoke: {
        id: 'sessCreate',
        src: 'sessCreate',
        input: ({ context }) => ({ data: context.startData }),
        onDone: {
          target: 'checkingUser',
          actions: [
            {
              type: 'storeNewSession',
              params: ({ event }) => ({ sessionToken: event.output.sessionToken }),
            },
            {
              type: 'persistSessionToken',
              params: ({ event }) => ({ sessionToken: event.output.sessionToken }),
            },
          ],
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setErrorText',
            params: ({ event }) => ({ text: failureText(event.error) }),
          },
        },
      },
    },
    checkingUser: {
      always: [{ guard: 'hasJwt', target: 'loadingUser' }, { target: 'loaded' }],
    },
    loadingUser: {
      invoke: {
        id: 'userData',
        src: 'userData',
        onDone: {
          target: 'loaded',
          actions: { type: 'handUserDataToAuth', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'setErrorText',
            params: ({ event }) => ({ text: failureText(event.error) }),
          },
        },
      },
    },
    loaded: {
      entry: 'reportLoaded',
    },
    failed: {
      entry: 'reportFailed',
    },
  },
});

export type SessionMachine = typeof sessionMachine;
