import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { isCallError, isNetworkError, serverMessageOf } from '../shared/callError';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import { API_VERSION } from '../../contract/spec';
import { SESSION_MESSAGES } from './session.messages';
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
    removeStoredSessionToken: (_, _params: undefined) => {},
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
    handUserDataToAuth: enqueueActions((queue, params: UserDataOutput) => {
      const loaded: AuthEvent = { type: 'auth.userLoaded', userData: params.user_data };
      sendToService(queue, SYSTEM_IDS.auth, loaded);
    }),
    // To the parent the input names (the app machine); run alone (tests, path traversal) there is
    // none, and nothing is sent.
    reportLoaded: enqueueActions(({ context, enqueue }) => {
      const loaded: SessionParentEvent = { type: 'session.loaded', publicData: context.publicData };
      if (context.parent) enqueue.sendTo(context.parent, loaded);
    }),
    reportFailed: enqueueActions(({ context, enqueue }) => {
      const failed: SessionParentEvent = {
        type: 'session.failed',
        code: 'Init',
        text: context.errorText ?? SESSION_MESSAGES.sessionFailed,
      };
      if (context.parent) enqueue.sendTo(context.parent, failed);
    }),
  },
  guards: {
    isOtherVersion: (_, params: { version: string }) => params.version !== API_VERSION,
    hasStoredSessionToken: ({ context }) => Boolean(context.sessionToken),
    hasJwt: ({ context }) => context.hasJwt,
    isAuthFailure: (_, params: { error: unknown }) =>
      isCallError(params.error) && params.error.kind === 'auth',
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
    parent: input.parent,
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
              type: 'isOtherVersion',
              params: ({ event }) => ({ version: event.output.version }),
            },
            target: 'failed',
            actions: {
              type: 'setErrorText',
              params: { text: SESSION_MESSAGES.expiredVersion(API_VERSION) },
            },
          },
          {
            guard: 'hasStoredSessionToken',
            target: 'loadingSession',
            actions: { type: 'storeInit', params: ({ event }) => event.output },
          },
          {
            target: 'creatingSession',
            actions: { type: 'storeInit', params: ({ event }) => event.output },
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
    loadingSession: {
      invoke: {
        id: 'sessLoad',
        src: 'sessLoad',
        // Stryker disable next-line StringLiteral: loadingSession is entered only with a stored token
        input: ({ context }) => ({ session: context.sessionToken ?? '' }),
        onDone: [{ guard: 'hasJwt', target: 'loadingUser' }, { target: 'loaded' }],
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
        onDone: [
          {
            guard: 'hasJwt',
            target: 'loadingUser',
            actions: [
              { type: 'storeNewSession', params: ({ event }) => event.output },
              { type: 'persistSessionToken', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'loaded',
            actions: [
              { type: 'storeNewSession', params: ({ event }) => event.output },
              { type: 'persistSessionToken', params: ({ event }) => event.output },
            ],
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
    loadingUser: {
      invoke: {
        id: 'userData',
        src: 'userData',
        onDone: {
          target: 'loaded',
          actions: { type: 'handUserDataToAuth', params: ({ event }) => event.output },
        },
        onError: [
          // The stored jwt could not be renewed: auth has logged out; the site loads signed out.
          {
            guard: { type: 'isAuthFailure', params: ({ event }) => ({ error: event.error }) },
            target: 'loaded',
          },
          {
            target: 'failed',
            actions: {
              type: 'setErrorText',
              params: ({ event }) => ({ text: failureText(event.error) }),
            },
          },
        ],
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
