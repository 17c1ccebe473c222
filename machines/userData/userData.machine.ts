import {
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  raise,
  setup,
} from 'xstate';
import type { EventObject } from 'xstate';
import type { AuthEvent } from '../auth/auth.types';
import { realtimeMachine } from '../realtime/realtime.machine';
import { SYSTEM_IDS, sendToService } from '../systemIds';
import {
  CHANGE_BURST_MS,
  USER_DATA_POLL_MS,
  type FetchedUserData,
  type UserDataContext,
  type UserDataEvent,
} from './userData.types';

/**
 * Keeps a signed-in player's user data current (counters, access, balance) without a reload.
 *
 * - It runs the realtime connection (`realtime`, systemId `realtime` for the views) and hears its
 *   facts as the parent: the server tells a user about every change it makes to their data on
 *   the `notifications` room, which the connection tells here as `userData.changed`, and whether
 *   the socket is up (`userData.live` / `userData.notLive`). No other actor passes them on.
 * - `sync` asks user/data once at a time: the changes of one burst (CHANGE_BURST_MS) are read
 *   with one request; a change that arrives while a request is on its way marks `again`, and one
 *   more request follows the answer (changes coalesce, never pile up).
 *   Each answer goes to the auth service (`auth.userLoaded`), which every view reads; the home
 *   service hears `home.userChanged` so the Invite tab's code list is read again.
 * - `poll`: while the socket is not connected and the page is visible, user/data is asked every
 *   USER_DATA_POLL_MS; when the socket comes up (the first time after signing in, or back after
 *   a loss), once at once: what the server said before it was up reached nobody.
 * - Provided actors: `fetchUserData` (user/data), `authWatch` (`userData.signedIn` /
 *   `userData.signedOut` as the auth service's jwt comes and goes) and `visibility`.
 */
export const userDataMachine = setup({
  types: {
    context: {} as UserDataContext,
    events: {} as UserDataEvent,
    input: {} as { visible?: boolean } | undefined,
  },
  actors: {
    fetchUserData: fromPromise<FetchedUserData>(async () => {
      throw new Error('fetchUserData not provided');
    }),
    authWatch: fromCallback<EventObject>(() => {
      throw new Error('authWatch not provided');
    }),
    visibility: fromCallback<EventObject>(() => {
      throw new Error('visibility not provided');
    }),
    /** The realtime connection, its socket and network parts provided by src/app. */
    realtime: realtimeMachine,
  },
  actions: {
    markLive: assign({ live: true }),
    markNotLive: assign({ live: false, missed: true }),
    markVisible: assign({ visible: true }),
    markHidden: assign({ visible: false }),
    markAgain: assign({ again: true }),
    startRequest: assign({ again: false }),
    forgetMissed: assign({ missed: false }),
    /** Signed in before the socket is up: a change told before it joins is not heard. */
    noteUnheard: assign(({ context }) => ({ missed: !context.live })),
    /** The fresh user data goes to the auth service; the home service reloads its codes. */
    deliver: enqueueActions((queue, params: { userData: FetchedUserData }) => {
      const loaded: AuthEvent = { type: 'auth.userLoaded', userData: params.userData };
      sendToService(queue, SYSTEM_IDS.auth, loaded);
      sendToService(queue, SYSTEM_IDS.home, { type: 'home.userChanged' });
    }),
    logFailure: (_, params: { error: unknown }) => {
      console.warn(
        // Stryker disable next-line StringLiteral: a console line for developers, no player text
        '[userData] user/data could not be read; the next change or poll asks again',
        params.error,
      );
    },
  },
  guards: {
    shouldPoll: ({ context }) => !context.live && context.visible,
    mayHaveMissed: ({ context }) => context.missed,
    hasAgain: ({ context }) => context.again,
    needsData: ({ event }) => {
      assertEvent(event, 'userData.signedIn');
      return event.needsData === true;
    },
  },
  delays: {
    pollInterval: USER_DATA_POLL_MS,
    changeBurst: CHANGE_BURST_MS,
  },
}).createMachine({
  id: 'userData',
  context: ({ input }) => ({
    live: false,
    visible: input?.visible ?? true,
    // Stryker disable next-line BooleanLiteral: fetching's entry (startRequest) clears it first
    again: false,
    // Stryker disable next-line BooleanLiteral: signedIn's entry (noteUnheard) sets it first
    missed: false,
  }),
  invoke: [
    { id: 'authWatch', src: 'authWatch' },
    { id: 'visibility', src: 'visibility' },
    {
      id: 'realtime',
      systemId: SYSTEM_IDS.realtime,
      src: 'realtime',
      input: ({ self }) => ({ parent: self }),
    },
  ],
  on: {
    'userData.notLive': { actions: 'markNotLive' },
    'userData.visible': { actions: 'markVisible' },
    'userData.hidden': { actions: 'markHidden' },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        'userData.live': { actions: 'markLive' },
        'userData.signedIn': [
          { guard: 'needsData', target: 'signedIn.sync.fetching' },
          { target: 'signedIn' },
        ],
      },
    },
    signedIn: {
      entry: 'noteUnheard',
      on: {
        'userData.signedOut': { target: 'signedOut' },
        // The socket is up: anything said before (while it was down, or before it first joined)
        // was missed, so ask once.
        'userData.live': [
          {
            guard: 'mayHaveMissed',
            actions: ['markLive', 'forgetMissed', raise({ type: 'userData.poll' })],
          },
          { actions: 'markLive' },
        ],
      },
      type: 'parallel',
      states: {
        sync: {
          initial: 'current',
          states: {
            current: {
              on: {
                'userData.changed': { target: 'gathering' },
                'userData.poll': { target: 'fetching' },
              },
            },
            /** A change was told: the rest of its burst is heard before user/data is asked. */
            gathering: {
              after: { changeBurst: { target: 'fetching' } },
              on: { 'userData.poll': { target: 'fetching' } },
            },
            fetching: {
              tags: ['syncing'],
              entry: 'startRequest',
              on: {
                'userData.changed': { actions: 'markAgain' },
                'userData.poll': { actions: 'markAgain' },
              },
              invoke: {
                id: 'fetchUserData',
                src: 'fetchUserData',
                onDone: [
                  {
                    guard: 'hasAgain',
                    target: 'fetching',
                    reenter: true,
                    actions: {
                      type: 'deliver',
                      params: ({ event }) => ({ userData: event.output }),
                    },
                  },
                  {
                    target: 'current',
                    actions: {
                      type: 'deliver',
                      params: ({ event }) => ({ userData: event.output }),
                    },
                  },
                ],
                onError: [
                  {
                    guard: 'hasAgain',
                    target: 'fetching',
                    reenter: true,
                    actions: {
                      type: 'logFailure',
                      params: ({ event }) => ({ error: event.error }),
                    },
                  },
                  {
                    target: 'current',
                    actions: {
                      type: 'logFailure',
                      params: ({ event }) => ({ error: event.error }),
                    },
                  },
                ],
              },
            },
          },
        },
        poll: {
          initial: 'paused',
          states: {
            /** The socket carries the changes, or nobody is looking. */
            paused: {
              always: { guard: 'shouldPoll', target: 'ticking' },
            },
            ticking: {
              tags: ['polling'],
              always: { guard: not('shouldPoll'), target: 'paused' },
              after: {
                pollInterval: {
                  target: 'ticking',
                  reenter: true,
                  actions: raise({ type: 'userData.poll' }),
                },
              },
            },
          },
        },
      },
    },
  },
});

export type UserDataMachine = typeof userDataMachine;
