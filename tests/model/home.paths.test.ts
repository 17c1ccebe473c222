import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { homeMachine } from '../../machines/home/home.machine';
import {
  selectActiveTab,
  selectCodeCount,
  selectCodesFailed,
  selectCodesLoading,
  selectCopyFeedbackRef,
  selectIsSharing,
  selectUnusedCodeCount,
} from '../../machines/home/home.selectors';
import {
  type InviteCodeItem,
  type OfferChoice,
  type ShareInput,
  type ShareResult,
} from '../../machines/home/home.types';
import { actorDriver, controllable, defineModel, settle, testPaths } from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const LINK = 'https://site.test/r/ABC123';
// Two unused codes (code_status 0) and one used: "Invitation codes available" counts the unused.
const CODES: InviteCodeItem[] = [
  { code_text: 'AAA', code_status: 0 },
  { code_text: 'BBB', code_status: 1 },
  { code_text: 'CCC', code_status: 0 },
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
    'home.offerChosen': [{ offer: 'invite' }, { offer: 'ticket' }],
    'home.shown': [{}],
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
  // A list left loading when the player leaves the tab is stopped: only the newest one waits.
  const codes = controllable<InviteCodeItem[]>({ abortable: true });
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
  return {
    actor,
    codes,
    share,
    clipboard,
    loadedCodes: [] as InviteCodeItem[],
    // The option card last chosen on the landing and not yet acted on (the test's own record).
    chosen: 'ticket' as OfferChoice,
  };
}
type Ctx = ReturnType<typeof setup>;

/** What the page reads in every state: the tab, the codes' load, sharing, the codes last loaded. */
function expectHome(
  ctx: Ctx,
  tab: 'getTicket' | 'invite',
  codes: 'loading' | 'loaded' | 'failed' | null,
  sharing: boolean,
) {
  const s = ctx.actor.getSnapshot();
  expect(selectActiveTab(s), "§2 tabs 'Get Ticket' and 'Invite'").toBe(tab);
  expect(selectCodesLoading(s)).toBe(codes === 'loading');
  expect(selectCodesFailed(s)).toBe(codes === 'failed');
  expect(selectIsSharing(s)).toBe(sharing);
  expect(selectCodeCount(s), 'the codes the server returned last').toBe(ctx.loadedCodes.length);
  expect(selectUnusedCodeCount(s), 'unused codes: code_status 0').toBe(
    ctx.loadedCodes.filter((c) => c.code_status === 0).length,
  );
  expect(Boolean(selectCopyFeedbackRef(s)), 'the link copies on the Invite tab').toBe(
    tab === 'invite',
  );
}

const copiedNow = (ctx: Ctx) => {
  const child = selectCopyFeedbackRef(ctx.actor.getSnapshot());
  return child ? selectIsCopied(child.getSnapshot()) : false;
};

const driver = actorDriver(model, {
  setup,
  events: {
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
    // A visitor's choice on the landing changes nothing on the page until the home is shown.
    'home.offerChosen': ({ ctx, event }) => {
      const before = selectActiveTab(ctx.actor.getSnapshot());
      ctx.actor.send(event);
      ctx.chosen = event.offer;
      expect(selectActiveTab(ctx.actor.getSnapshot())).toBe(before);
    },
    // §2 option cards: after choosing `Invite 2 friends`, the signed-in home opens on the Invite
    // tab (the invite link), once; otherwise the tab stays where it was.
    'home.shown': ({ ctx, event }) => {
      const before = selectActiveTab(ctx.actor.getSnapshot());
      ctx.actor.send(event);
      const expected = ctx.chosen === 'invite' && before === 'getTicket' ? 'invite' : before;
      expect(selectActiveTab(ctx.actor.getSnapshot()), 'the tab the chosen card leads to').toBe(
        expected,
      );
      if (expected !== before) ctx.chosen = 'ticket';
    },
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
    'xstate.done.actor.inviteCodes': async ({ ctx, event }) => {
      await ctx.codes.resolve(event.output as InviteCodeItem[]);
      ctx.loadedCodes = event.output as InviteCodeItem[];
    },
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
      expect(selectIsSharing(ctx.actor.getSnapshot()), 'the link can be shared again').toBe(false);
    },
    'xstate.error.actor.shareLink': async ({ ctx, event }) => {
      await ctx.share.reject(event.error);
      await settle();
      // A dismissed share sheet: nothing copied, the link ready again.
      expect(selectIsSharing(ctx.actor.getSnapshot())).toBe(false);
    },
  },
  clauses: {
    getTicket: ['§2.home.tabs'],
    'invite.codes.loading': ['§7.calls.inviteCodes'],
    'invite.codes.loaded': ['§2.invite.link'],
    'invite.codes.failed': ['§2.invite.link'],
    'invite.link.sharing': ['§2.invite.link'],
  },
  states: {
    getTicket: ({ ctx }) => expectHome(ctx, 'getTicket', null, false),
    'invite.codes.loading': ({ ctx, snapshot }) => {
      expectHome(ctx, 'invite', 'loading', snapshot.matches({ invite: { link: 'sharing' } }));
      expect(ctx.codes.pending()).toBe(1);
    },
    'invite.codes.loaded': ({ ctx, snapshot }) =>
      expectHome(ctx, 'invite', 'loaded', snapshot.matches({ invite: { link: 'sharing' } })),
    'invite.codes.failed': ({ ctx, snapshot }) =>
      expectHome(ctx, 'invite', 'failed', snapshot.matches({ invite: { link: 'sharing' } })),
    'invite.link.sharing': ({ ctx }) => {
      expect(selectIsSharing(ctx.actor.getSnapshot())).toBe(true);
      // The share sheet gets the link, the game's name and the training start (§1, §2).
      const call = ctx.share.calls.at(-1);
      expect(call?.url).toBe(LINK);
      expect(call?.title).toBe('Solana Mafia Wars');
      expect(call?.text).toContain('December 20');
    },
  },
});

testPaths(model, driver);
