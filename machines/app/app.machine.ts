import { assign, enqueueActions, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import { authMachine } from '../auth/auth.machine';
import { errorModalMachine } from '../errorModal/errorModal.machine';
import { homeMachine } from '../home/home.machine';
import { launchMachine } from '../launch/launch.machine';
import { notificationsMachine } from '../notifications/notifications.machine';
import { sessionMachine } from '../session/session.machine';
import { signInMachine } from '../signIn/signIn.machine';
import { SYSTEM_IDS } from '../systemIds';
import { themeMachine } from '../theme/theme.machine';
import { MEMBER_IDS, type MemberId } from './app.types';
import type { AppContext, AppEvent, AppInput, MemberServices } from './app.types';

/**
 * The root actor (§2 Shell, §4 App load). It spawns the long-lived services, each under its
 * systemId so views and other machines reach them with `system.get(SYSTEM_IDS.x)`, invokes the
 * session bootstrap, and owns the loaded flag (`boot` in any state but `loading`) and the
 * application error.
 *
 * Adding a service is one line in SERVICES: its machine takes `{ stored }` (ServiceInput) as
 * input and is spawned at start with id and systemId equal to its key in SYSTEM_IDS.
 *
 * The member services (payment and user data, which runs the realtime connection: only a
 * signed-in player uses them) are not in SERVICES: their code is a chunk of its own. Once the
 * session has loaded, the `members` region loads it (`loadMembers`, an `import()` provided by the
 * composition root) and spawns them, once, under their ids and systemIds; a chunk that cannot load
 * is reported (`reportMembersUnavailable`, whose Retry sends `app.retryMembers`).
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
    loadMembers: fromPromise<MemberServices>(async () => {
      throw new Error('loadMembers not provided');
    }),
  },
  actions: {
    spawnMembers: enqueueActions(({ enqueue, context }, members: MemberServices) => {
      const input = { stored: context.stored };
      // Spawned by id (the key of `snapshot.children` that views read) and systemId (what other
      // services ask the system for). XState types forbid an `id` for logic that setup() does
      // not name (the members' code is outside this chunk), hence the cast.
      const options = (id: MemberId) =>
        ({ id, systemId: id, input }) as unknown as { input: typeof input };
      for (const id of MEMBER_IDS) enqueue.spawnChild(members[id], options(id));
    }),
    /** Tells the page the member services' code could not load; its Retry asks again. */
    reportMembersUnavailable: (_, _params: { error: unknown }) => {},
    setError: assign({
      error: (_, params: { code: string; text: string }) => ({
        code: params.code,
        text: params.text,
      }),
    }),
  },
}).createMachine({
  id: 'app',
  context: ({ input }) => ({
    stored: input.stored,
    startData: input.startData,
    error: null,
  }),
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
  type: 'parallel',
  states: {
    boot: {
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
                invitationFrom: event.publicData.invitation_from,
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
    },
    members: {
      // Only a page whose session has loaded uses them: a failed start shows the spec's error
      // view and asks for nothing more.
      initial: 'waitingForSession',
      states: {
        waitingForSession: {
          on: { 'session.loaded': 'loadingCode', 'session.failed': 'notNeeded' },
        },
        notNeeded: {},
        loadingCode: {
          invoke: {
            id: 'loadMembers',
            src: 'loadMembers',
            onDone: {
              target: 'running',
              actions: { type: 'spawnMembers', params: ({ event }) => event.output },
            },
            onError: {
              target: 'codeUnavailable',
              actions: {
                type: 'reportMembersUnavailable',
                params: ({ event }) => ({ error: event.error }),
              },
            },
          },
        },
        codeUnavailable: {
          on: { 'app.retryMembers': 'loadingCode' },
        },
        running: {},
      },
    },
  },
});

export type AppMachine = typeof appMachine;
