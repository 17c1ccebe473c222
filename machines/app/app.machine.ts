import { assign, enqueueActions, sendTo, setup, spawnChild } from 'xstate';
import { authMachine } from '../auth/auth.machine';
import { errorModalMachine } from '../errorModal/errorModal.machine';
import { homeMachine } from '../home/home.machine';
import { launchMachine } from '../launch/launch.machine';
import { notificationsMachine } from '../notifications/notifications.machine';
import { sessionMachine } from '../session/session.machine';
import { signInMachine } from '../signIn/signIn.machine';
import { SYSTEM_IDS } from '../systemIds';
import { themeMachine } from '../theme/theme.machine';
import type { AppContext, AppEvent, AppInput } from './app.types';

/**
 * The root actor (§2 Shell, §4 App load). It spawns the long-lived services, each under its
 * systemId so views and other machines reach them with `system.get(SYSTEM_IDS.x)`, invokes the
 * session bootstrap, and owns the loaded flag (any state but `loading`) and the application error.
 *
 * Adding a service is one line in SERVICES: its machine takes `{ stored }` (ServiceInput) as
 * input and is spawned at start with id and systemId equal to its key in SYSTEM_IDS.
 *
 * The member services (payment, realtime and user data: only a signed-in player uses them) are not in
 * SERVICES: their code is a chunk of its own, and the composition root hands their provided
 * logic over with `app.membersLoaded` once it has loaded; they are spawned then, once, under
 * their ids (not systemIds: see spawnMembers). Realtime follows the auth service's jwt from its
 * first snapshot. What the realtime service learns for the user-data service (a change pushed by
 * the server, the socket up or down) comes here as `userData.*` and is passed on to it.
 */
export const SERVICES = {
  [SYSTEM_IDS.auth]: authMachine,
  [SYSTEM_IDS.launch]: launchMachine,
  [SYSTEM_IDS.home]: homeMachine,
  [SYSTEM_IDS.signIn]: signInMachine,
  [SYSTEM_IDS.notifications]: notificationsMachine,
  [SYSTEM_IDS.errorModal]: errorModalMachine,
  [SYSTEM_IDS.theme]: themeMachine,
} as const;

type ServiceId = keyof typeof SERVICES;
const serviceIds = Object.keys(SERVICES) as ServiceId[];

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
  },
  // Stryker disable next-line ObjectLiteral: defaults only; composeApp (src/app/compose.ts) provides every one
  actors: {
    ...SERVICES,
    session: sessionMachine,
  },
  actions: {
    spawnMembers: enqueueActions(({ enqueue, context, event, self }) => {
      // Stryker disable next-line ConditionalExpression: only app.membersLoaded runs this action; the test narrows the event's type
      if (event.type !== 'app.membersLoaded') return;
      const input = { stored: context.stored };
      // Spawned by id (the key of `snapshot.children` that views read), without a systemId: the
      // pure traversal of generated paths takes this transition from several states in one
      // actor system, where a repeated systemId is refused. XState types forbid an `id` for logic
      // that setup() does not name, hence the cast.
      const options = (id: 'realtime' | 'payment' | 'userData', extra = {}) =>
        ({ id, input: { ...input, ...extra } }) as unknown as { input: typeof input };
      // What realtime learns for the user-data service comes here (it names this machine).
      enqueue.spawnChild(event.realtime, options(SYSTEM_IDS.realtime, { parent: self }));
      enqueue.spawnChild(event.payment, options(SYSTEM_IDS.payment));
      enqueue.spawnChild(event.userData, options(SYSTEM_IDS.userData));
      enqueue.assign({ membersRunning: true });
    }),
    /** Passes a realtime fact on to the user-data service (dropped before it runs). */
    forwardToUserData: sendTo(SYSTEM_IDS.userData, ({ event }) => event),
    setError: assign({
      error: (_, params: { code: string; text: string }) => ({
        code: params.code,
        text: params.text,
      }),
    }),
  },
  guards: {
    /** The member services (the user-data service among them) have been spawned. */
    hasUserData: ({ context }) => context.membersRunning,
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    stored: input.stored,
    startData: input.startData,
    error: null,
    membersRunning: false,
  }),
  on: {
    'app.membersLoaded': {
      guard: ({ context }) => !context.membersRunning,
      actions: 'spawnMembers',
    },
    'userData.changed': { guard: 'hasUserData', actions: 'forwardToUserData' },
    'userData.live': { guard: 'hasUserData', actions: 'forwardToUserData' },
    'userData.notLive': { guard: 'hasUserData', actions: 'forwardToUserData' },
  },
  entry: serviceIds.map((id) =>
    spawnChild(id, { id, systemId: id, input: ({ context }) => ({ stored: context.stored }) }),
  ),
  invoke: {
    id: 'session',
    systemId: SYSTEM_IDS.session,
    src: 'session',
    input: ({ context, self }) => ({
      parent: self,
      sessionToken: context.stored.sessionToken,
      hasJwt: Boolean(context.stored.jwt),
      startData: context.startData,
    }),
  },
  initial: 'loading',
  states: {
    loading: {
      on: {
        'session.loaded': {
          target: 'loaded',
          // The server's launch calendar replaces the spec's for every dated text.
          actions: sendTo(SYSTEM_IDS.launch, ({ event }) => ({
            type: 'launch.calendarTold' as const,
            launchAt: event.publicData.launch_at,
            earlyBirdEnd: event.publicData.early_bird_end,
          })),
        },
        'session.failed': {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ event }) => ({ code: event.code, text: event.text }),
          },
        },
      },
    },
    loaded: {},
    failed: {},
  },
});

export type AppMachine = typeof appMachine;
