import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { homeMachine } from '../../machines/home/home.machine';
import {
  selectActiveTab,
  selectCodesFailed,
  selectCodesLoading,
  selectCopyFeedbackRef,
  selectIsSharing,
  selectUnusedCodeCount,
} from '../../machines/home/home.selectors';
import {
  SHARE_TEXT,
  SHARE_TITLE,
  type InviteCodeItem,
  type ShareInput,
  type ShareResult,
} from '../../machines/home/home.types';
import {
  controllable,
  defineModel,
  settle,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const LINK = 'https://site.test/r/ABC123';
const CODES: InviteCodeItem[] = [
  { code_text: 'AAA', code_status: 0 },
  { code_text: 'BBB', code_status: 1 },
];

const model = defineModel({
  name: 'home',
  machine: homeMachine,
  required: SPEC_TRANSITIONS.home,
  events: {
    'home.showTicket': [{}],
    'home.showInvite': [{}],
    'invite.copyLink': [{ url: LINK }],
    'invite.share': [{ url: LINK }],
    'home.userChanged': [{}],
  },
  outcomes: {
    'xstate.done.actor.inviteCodes': [{ output: CODES }],
    'xstate.error.actor.inviteCodes': [{ error: new Error('Network connection failed') }],
    'xstate.done.actor.shareLink': [
      { output: { outcome: 'shared', url: LINK } satisfies ShareResult },
      { output: { outcome: 'unsupported', url: LINK } satisfies ShareResult },
    ],
    'xstate.error.actor.shareLink': [{ error: new Error('Share dismissed') }],
  },
  // Both share outcomes (shared, or no Web Share API → copied) return to link.idle with the
  // same context: keyed by transition, each gets a path of its own.
  paths: { simple: false, byTransition: true },
});

/** The home service with controllable calls and a clipboard that records what it was given. */
function setup() {
  const codes = controllable<InviteCodeItem[]>();
  const share = controllable<ShareResult, ShareInput>();
  const clipboard: string[] = [];
  const actor = createActor(
    homeMachine.provide({
      actors: {
        inviteCodes: codes.logic,
        shareLink: share.logic,
        copyFeedback: copyFeedbackMachine.provide({
          actors: {
            writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => {
              clipboard.push(input.text);
            }),
          },
        }),
      },
    }),
    { input: {} },
  );
  actor.start();
  return { actor, codes, share, clipboard };
}
type Ctx = ReturnType<typeof setup>;

const copiedNow = (ctx: Ctx) => {
  const child = selectCopyFeedbackRef(ctx.actor.getSnapshot());
  return child ? selectIsCopied(child.getSnapshot()) : false;
};

const events = {
  'home.showTicket': ({ ctx, event }) => ctx.actor.send(event),
  'home.showInvite': ({ ctx, event }) => ctx.actor.send(event),
  'invite.copyLink': async ({ ctx, event }) => {
    const before = ctx.clipboard.length;
    ctx.actor.send(event);
    await settle();
    expect(ctx.clipboard.slice(before)).toEqual([LINK]);
    expect(copiedNow(ctx)).toBe(true);
  },
  'invite.share': ({ ctx, event }) => ctx.actor.send(event),
  // The player's data changed: the Invite tab reads its codes again (never while on Get Ticket,
  // never a second request while one is on its way).
  'home.userChanged': ({ ctx, event }) => {
    const snapshot = ctx.actor.getSnapshot();
    const reload =
      snapshot.matches({ invite: { codes: 'loaded' } }) ||
      snapshot.matches({ invite: { codes: 'failed' } });
    const before = ctx.codes.calls.length;
    ctx.actor.send(event);
    expect(ctx.codes.calls.length - before).toBe(reload ? 1 : 0);
  },
  'xstate.done.actor.inviteCodes': ({ ctx, event }) =>
    ctx.codes.resolve(event.output as InviteCodeItem[]),
  'xstate.error.actor.inviteCodes': ({ ctx, event }) => ctx.codes.reject(event.error),
  'xstate.done.actor.shareLink': async ({ ctx, event }) => {
    const before = ctx.clipboard.length;
    const output = event.output as ShareResult;
    await ctx.share.resolve(output);
    await settle();
    // Without the Web Share API the link is copied instead (and "Copied!" shows).
    const expected = output.outcome === 'unsupported' ? [LINK] : [];
    expect(ctx.clipboard.slice(before)).toEqual(expected);
    if (expected.length > 0) expect(copiedNow(ctx)).toBe(true);
  },
  'xstate.error.actor.shareLink': ({ ctx, event }) => ctx.share.reject(event.error),
} satisfies Executors<typeof model, Ctx>;

const driver: Driver<typeof model, Ctx> = {
  setup,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events,
  states: {
    getTicket: ({ ctx }) => expect(selectActiveTab(ctx.actor.getSnapshot())).toBe('getTicket'),
    'invite.codes.loading': ({ ctx }) => {
      expect(selectActiveTab(ctx.actor.getSnapshot())).toBe('invite');
      expect(selectCodesLoading(ctx.actor.getSnapshot())).toBe(true);
      expect(ctx.codes.pending()).toBe(1);
    },
    'invite.codes.loaded': ({ ctx }) =>
      expect(selectUnusedCodeCount(ctx.actor.getSnapshot())).toBe(1),
    'invite.codes.failed': ({ ctx }) =>
      expect(selectCodesFailed(ctx.actor.getSnapshot())).toBe(true),
    'invite.link.sharing': ({ ctx }) => {
      expect(selectIsSharing(ctx.actor.getSnapshot())).toBe(true);
      expect(ctx.share.calls.at(-1)).toEqual({ url: LINK, title: SHARE_TITLE, text: SHARE_TEXT });
    },
  },
};

testPaths(model, driver);
