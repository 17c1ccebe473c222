import { expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  setup as setup_,
  type ActorRefFrom,
  type AnyEventObject,
} from 'xstate';
import type { AuthUserData } from '../../machines/auth/auth.types';
import { invitationMachine } from '../../machines/invitation/invitation.machine';
import {
  selectCodeNotice,
  selectIsSubmitting,
  selectTypedCode,
  selectUnknownLinkNotice,
} from '../../machines/invitation/invitation.selectors';
import { SYSTEM_IDS } from '../../machines/systemIds';
import { SPEC_TRANSITIONS } from '../support/specTransitions';
import {
  checkModelProperty,
  controllable,
  defineModel,
  specExpect,
  systemDriver,
  testPaths,
  withSpecRecord,
  type Executors,
} from '../support/paths';

/**
 * Generated paths through the invitation service: a link's code is kept (stored and shown by
 * sign-in) only when invite/check knows it or cannot answer, an unknown one is said and never
 * stored; a friend's code typed after sign-in goes to user/inviter, whose refusal is shown with
 * what was typed kept. The expectations come from the events sent (the record below).
 */
const UNKNOWN = 'nosuchcode';
const TYPED = ' friend-42 ';
const REFUSAL = 'The invite code X is unknown: check it with the friend who sent it.';
const user: AuthUserData = {
  user_email: 'a@b.co',
  user_lvl: 0,
  user_access: 0,
  user_invite_code: 'ABC',
  user_payment_wallet: 'Wallet1111',
  user_payment_wallet_balance: '0',
  user_payment_wallet_data: { wallet_id: 'w1' },
  user_ref_registered: 0,
  user_ref_confirmed: 0,
  user_data: { referral: { clicks: 0, registered: 0, confirmed: 0 } },
};

const model = defineModel({
  name: 'invitation',
  machine: invitationMachine,
  required: SPEC_TRANSITIONS.invitation,
  events: {
    'invitation.linkOpened': [{ code: UNKNOWN }],
    'invitation.codeChanged': [{ code: TYPED }, { code: '--' }],
    'invitation.submit': [{}],
    'signIn.dialogOpened': [{}],
    'signIn.dialogClosed': [{}],
  },
  outcomes: {
    'xstate.done.actor.checkCode': [{ output: true }, { output: false }],
    'xstate.error.actor.checkCode': [{ error: new Error('Network connection failed') }],
    'xstate.done.actor.setInviter': [{ output: user }],
    'xstate.error.actor.setInviter': [{ error: { message: 'http', serverMessage: REFUSAL } }],
  },
  paths: { simple: false, byTransition: true, maxPaths: 400 },
});

function setup() {
  const check = controllable<boolean, { code: string }>({ abortable: true });
  const inviter = controllable<AuthUserData, { code: string }>();
  const stored: string[] = [];
  const signInTold: string[] = [];
  const banners: string[] = [];
  const delivered: AuthUserData[] = [];
  const listen = (into: (event: AnyEventObject) => void) => () =>
    fromCallback<AnyEventObject>(({ receive }) => receive(into));
  const root = createActor(
    setup_({
      actors: {
        invitation: invitationMachine.provide({
          actors: {
            linkCodes: fromCallback(() => {}),
            signInDialog: fromCallback(() => {}),
            checkCode: check.logic,
            setInviter: inviter.logic,
          },
          actions: { storeLinkCode: (_, { code }) => void stored.push(code) },
        }),
        signIn: listen((e) => e.type === 'inviteCode.stored' && signInTold.push(String(e.code)))(),
        notifications: listen((e) => e.type === 'info.show' && banners.push(String(e.message)))(),
        auth: listen(
          (e) =>
            e.type === 'auth.userLoaded' &&
            delivered.push((e as unknown as { userData: AuthUserData }).userData),
        )(),
      },
    }).createMachine({
      invoke: [
        { id: 'signIn', systemId: SYSTEM_IDS.signIn, src: 'signIn' },
        { id: 'notifications', systemId: SYSTEM_IDS.notifications, src: 'notifications' },
        { id: 'auth', systemId: SYSTEM_IDS.auth, src: 'auth' },
        { id: 'invitation', src: 'invitation', input: undefined },
      ],
    }),
  );
  root.start();
  const actor = root.getSnapshot().children.invitation as unknown as ActorRefFrom<
    typeof invitationMachine
  >;
  return { root, actor, check, inviter, stored, signInTold, banners, delivered };
}
type Ctx = ReturnType<typeof setup>;

const events = {
  'invitation.linkOpened': ({ ctx, event }) => ctx.actor.send(event),
  'invitation.codeChanged': ({ ctx, event }) => ctx.actor.send(event),
  'invitation.submit': ({ ctx, event }) => ctx.actor.send(event),
  'signIn.dialogOpened': ({ ctx, event }) => ctx.actor.send(event),
  'signIn.dialogClosed': ({ ctx, event }) => ctx.actor.send(event),
  'xstate.done.actor.checkCode': ({ ctx, event }) => ctx.check.resolve(event.output as boolean),
  'xstate.error.actor.checkCode': ({ ctx, event }) => ctx.check.reject(event.error),
  'xstate.done.actor.setInviter': ({ ctx, event }) =>
    ctx.inviter.resolve(event.output as AuthUserData),
  'xstate.error.actor.setInviter': ({ ctx, event }) => ctx.inviter.reject(event.error),
} satisfies Executors<typeof model, Ctx>;

const driver = systemDriver(
  model,
  { live: ({ actor }) => actor, root: ({ root }) => root },
  {
    setup,
    events,
    clauses: { '*': ['§2.routes.ref', '§2.bonus.invitation'] },
    states: {
      '*': ({ ctx }) => {
        expect(ctx.check.pending()).toBeLessThanOrEqual(1);
        expect(ctx.inviter.pending()).toBeLessThanOrEqual(1);
        // What is checked and what is sent: the link's code, the code as typed.
        for (const call of ctx.check.calls) expect(call).toEqual({ code: UNKNOWN });
        for (const call of ctx.inviter.calls) expect(call).toEqual({ code: TYPED });
      },
    },
  },
);

type Record_ = {
  typed: string;
  notice: string | null;
  submitting: boolean;
  checking: boolean;
  stored: number;
  unknown: string | null;
  banners: number;
  delivered: number;
  dialogOpen: boolean;
};

testPaths(
  model,
  withSpecRecord(model, driver, {
    clauses: ['§2.routes.ref', '§2.bonus.invitation'],
    start: (): Record_ => ({
      typed: '',
      notice: null,
      submitting: false,
      checking: false,
      stored: 0,
      unknown: null,
      banners: 0,
      delivered: 0,
      dialogOpen: false,
    }),
    next: (x, event): Record_ => {
      switch (event.type) {
        case 'invitation.linkOpened':
          return { ...x, checking: true };
        case 'invitation.codeChanged':
          return x.submitting ? x : { ...x, typed: event.code, notice: null };
        case 'invitation.submit':
          if (x.submitting) return x;
          // §5's cleaner: a code with no letter or digit is no code; nothing is sent.
          return /[A-Za-z0-9]/.test(x.typed)
            ? { ...x, submitting: true }
            : { ...x, notice: "Please enter a friend's invite code." };
        case 'signIn.dialogOpened':
          return { ...x, dialogOpen: true };
        case 'signIn.dialogClosed':
          return { ...x, dialogOpen: false };
        case 'xstate.done.actor.checkCode':
          // An unknown code is said once: in the open sign-in dialog, else on the banner.
          if (event.output) return { ...x, checking: false, stored: x.stored + 1, unknown: null };
          return x.dialogOpen
            ? { ...x, checking: false, unknown: UNKNOWN.toUpperCase() }
            : { ...x, checking: false, unknown: null, banners: x.banners + 1 };
        case 'xstate.error.actor.checkCode':
          return { ...x, checking: false, stored: x.stored + 1, unknown: null };
        case 'xstate.done.actor.setInviter':
          return { ...x, submitting: false, typed: '', notice: null, delivered: x.delivered + 1 };
        case 'xstate.error.actor.setInviter':
          return { ...x, submitting: false, notice: REFUSAL };
        default:
          return x;
      }
    },
    check: (ctx, x) => {
      const live = ctx.actor.getSnapshot();
      specExpect('§2.bonus.invitation', selectTypedCode(live), 'what the player typed').toBe(
        x.typed,
      );
      specExpect('§2.bonus.invitation', selectCodeNotice(live), 'the refusal shown').toBe(x.notice);
      specExpect('§2.bonus.invitation', selectIsSubmitting(live), 'naming the inviter').toBe(
        x.submitting,
      );
      specExpect('§2.bonus.invitation', ctx.delivered.length, 'user data handed to auth').toBe(
        x.delivered,
      );
      specExpect('§2.routes.ref', ctx.stored, 'codes stored').toEqual(
        Array.from({ length: x.stored }, () => UNKNOWN),
      );
      specExpect('§2.routes.ref', ctx.signInTold.length, 'codes told to sign-in').toBe(x.stored);
      specExpect('§2.routes.ref', selectUnknownLinkNotice(live), 'the unknown link said').toBe(
        x.unknown === null
          ? null
          : `The invite code ${x.unknown} is unknown: check it with the friend who sent it.`,
      );
      specExpect('§2.routes.ref', ctx.banners, 'banners').toEqual(
        Array.from({ length: x.banners }, () =>
          expect.stringContaining(`The invite code ${UNKNOWN.toUpperCase()} is unknown`),
        ),
      );
      specExpect('§2.routes.ref', ctx.check.pending(), 'a check on its way').toBe(
        x.checking ? 1 : 0,
      );
    },
  }),
);

it('the unknown code said is the last link checked, and a refused code keeps what was typed', () => {
  checkModelProperty('invitation: what is said and what is kept', model, {
    maxEvents: 30,
    invariant: ({ snapshot }) => {
      const { unknownLinkNotice, linkCode, notice, typed } = snapshot.context;
      if (unknownLinkNotice !== null)
        expect(unknownLinkNotice).toContain(`invite code ${linkCode?.toUpperCase()} is unknown`);
      if (notice === REFUSAL) expect(typed).toBe(TYPED);
    },
  });
});
