import { and, assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import type { InfoShowEvent } from '../notifications/notifications.types';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import { AUTH_MESSAGES, SIGNED_OUT_ELSEWHERE_TEXT } from './auth.messages';
import type {
  AuthContext,
  AuthEvent,
  AuthInput,
  AuthUserData,
  RefreshInput,
  RefreshOutput,
} from './auth.types';

/**
 * Auth (§4 Auth, Token refresh): jwt, refresh token and user data, and the single-flight refresh.
 *
 * A protected call that gets a 401 sends `auth.refresh` with the jwt it used and waits for the
 * context to change (src/app/tokenSource.ts). Only the first request for the current jwt starts a
 * refresh; while `refreshing`, further requests are not even handled, so N waiters share one
 * auth/refresh. A request that used an older jwt is ignored here: its caller resends with the
 * current one. A failed refresh logs out (once), which every waiter sees as a new epoch.
 * Leaving `refreshing` (logout) stops the refresh actor, so a late answer is dropped.
 */
const loggedOut = {
  jwt: null,
  refreshToken: null,
  userData: null,
} as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    refreshTokens: fromPromise<RefreshOutput, RefreshInput>(async () => {
      throw new Error('refreshTokens not provided');
    }),
    /**
     * Reports `auth.loggedOutElsewhere` when another tab removes the jwt and
     * `auth.signedInElsewhere` when another tab stores one (storage events).
     */
    watchOtherTabs: fromCallback<AuthEvent>(() => {
      throw new Error('watchOtherTabs not provided');
    }),
  },
  actions: {
    /** Writes jwt and refresh token to browser storage (provided by src/main.tsx). */
    persistTokens: (_, _params: { jwt: string; refreshToken: string }) => {},
    /** Removes jwt and refresh token from browser storage (provided by src/main.tsx). */
    clearStoredTokens: (_, _params: undefined) => {},
    /** Exit: asks the server to revoke the refresh token's family (best effort, provided). */
    revokeSession: (_, _params: { refreshToken: string | null }) => {},
    storeSignInElsewhere: assign(({ event }) => {
      assertEvent(event, 'auth.signedInElsewhere');
      return {
        jwt: event.jwt,
        refreshToken: event.refreshToken || null,
        userData: null,
        epoch: event.jwt,
        logoutReason: null,
      };
    }),
    /** Another tab signed in: this tab's sign-in dialog, if it is open, has no more to do. */
    closeSignInDialog: enqueueActions((queue) =>
      sendToService(queue, SYSTEM_IDS.signIn, { type: 'signIn.signedInElsewhere' }),
    ),
    /**
     * Another tab ended the session: this tab says so on the information banner, or the player
     * would find the landing where the signed-in home was with no word why.
     */
    tellSignedOutElsewhere: enqueueActions((queue) =>
      sendToService(queue, SYSTEM_IDS.notifications, {
        type: 'info.show',
        message: SIGNED_OUT_ELSEWHERE_TEXT,
        messageType: 'info',
      } satisfies InfoShowEvent),
    ),
    storeSignIn: assign(({ event }) => {
      assertEvent(event, 'auth.signedIn');
      return {
        jwt: event.jwt,
        refreshToken: event.refreshToken || null,
        userData: event.userData,
        epoch: event.jwt,
        logoutReason: null,
      };
    }),
    storeUserData: assign({
      userData: (_, params: { userData: AuthUserData }) => params.userData,
    }),
    grantAccess: assign({
      userData: ({ context }) =>
        context.userData ? { ...context.userData, user_access: 1 } : context.userData,
    }),
    storeRefreshedTokens: assign((_, params: RefreshOutput) => ({
      jwt: params.jwt,
      refreshToken: params.refreshToken,
    })),
    clearSession: assign((_, params: { reason: string | null }) => ({
      ...loggedOut,
      epoch: null,
      logoutReason: params.reason,
    })),
  },
  guards: {
    hasJwt: ({ context }) => Boolean(context.jwt),
    /** The 401 came from a request sent with the jwt we still hold. */
    isCurrentJwt: ({ context, event }) => {
      assertEvent(event, 'auth.refresh');
      return context.jwt === event.jwt;
    },
    hasRefreshToken: ({ context }) => Boolean(context.refreshToken),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({
    jwt: input.stored.jwt || null,
    refreshToken: input.stored.refreshToken || null,
    userData: null,
    epoch: input.stored.jwt || null,
    logoutReason: null,
  }),
  // Other tabs of the site share storage: their sign-in and logout are this tab's too.
  invoke: { src: 'watchOtherTabs' },
  initial: 'signedOut',
  states: {
    signedOut: {
      // A jwt found in storage at boot restores the signed-in state.
      always: { guard: 'hasJwt', target: 'signedIn' },
      on: {
        // Another tab signed in: its tokens are already stored; user data is read again here.
        'auth.signedInElsewhere': {
          // Stryker disable next-line StringLiteral: the stored jwt leads to signedIn by `always` too
          target: 'signedIn',
          actions: ['storeSignInElsewhere', 'closeSignInDialog'],
        },
        'auth.signedIn': {
          // Stryker disable next-line StringLiteral: the stored jwt leads to signedIn by `always` too
          target: 'signedIn',
          actions: [
            'storeSignIn',
            {
              type: 'persistTokens',
              params: ({ event }) => ({ jwt: event.jwt, refreshToken: event.refreshToken }),
            },
          ],
        },
      },
    },
    signedIn: {
      initial: 'idle',
      on: {
        'auth.signedIn': {
          target: '.idle',
          actions: [
            'storeSignIn',
            {
              type: 'persistTokens',
              params: ({ event }) => ({ jwt: event.jwt, refreshToken: event.refreshToken }),
            },
          ],
        },
        'auth.userLoaded': {
          actions: { type: 'storeUserData', params: ({ event }) => ({ userData: event.userData }) },
        },
        'auth.accessGranted': { actions: 'grantAccess' },
        'auth.logout': {
          target: 'signedOut',
          actions: [
            {
              type: 'revokeSession',
              params: ({ context }) => ({ refreshToken: context.refreshToken }),
            },
            { type: 'clearSession', params: { reason: null } },
            'clearStoredTokens',
          ],
        },
        'auth.loggedOutElsewhere': {
          target: 'signedOut',
          actions: [
            { type: 'clearSession', params: { reason: null } },
            'clearStoredTokens',
            'tellSignedOutElsewhere',
          ],
        },
      },
      states: {
        idle: {
          on: {
            'auth.refresh': [
              {
                guard: and(['isCurrentJwt', 'hasRefreshToken']),
                target: 'refreshing',
              },
              {
                guard: 'isCurrentJwt',
                target: '#auth.signedOut',
                actions: [
                  { type: 'clearSession', params: { reason: AUTH_MESSAGES.noRefreshToken } },
                  'clearStoredTokens',
                ],
              },
            ],
          },
        },
        refreshing: {
          invoke: {
            id: 'refreshTokens',
            src: 'refreshTokens',
            // Stryker disable next-line StringLiteral: refreshing is entered only with a refresh token
            input: ({ context }) => ({ refreshToken: context.refreshToken ?? '' }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storeRefreshedTokens', params: ({ event }) => event.output },
                { type: 'persistTokens', params: ({ event }) => event.output },
              ],
            },
            onError: {
              target: '#auth.signedOut',
              actions: [
                { type: 'clearSession', params: { reason: AUTH_MESSAGES.refreshFailed } },
                'clearStoredTokens',
              ],
            },
          },
        },
      },
    },
  },
});

export type AuthMachine = typeof authMachine;
