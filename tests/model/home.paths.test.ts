import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { homeMachine } from '../../machines/home/home.machine';
import {
  selectActiveTab,
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
import {
  actorDriver,
  controllable,
  defineModel,
  settle,
  specExpect,
  testPaths,
  testSpecScenarios,
  withSpecRecord,
} from '../support/paths';
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
  expect(s.matches({ invite: { codes: 'failed' } })).toBe(codes === 'failed');
  expect(selectIsSharing(s)).toBe(sharing);
  expect(s.context.codes.length, 'the codes the server returned last').toBe(ctx.loadedCodes.length);
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

/**
 * What §2 says the home shows, kept from the events alone (never from the chart): the tab, the
 * codes' load on the Invite tab, the share sheet, and the card chosen on the landing.
 */
type HomeRecord = {
  tab: 'getTicket' | 'invite';
  codes: 'loading' | 'loaded' | 'failed' | null;
  sharing: boolean;
  chosen: OfferChoice;
};
/** Entering the Invite tab reads the codes (§7 user/invite/codes); the link is ready. */
const onInvite = (x: HomeRecord): HomeRecord =>
  x.tab === 'invite' ? x : { ...x, tab: 'invite', codes: 'loading', sharing: false };

const withRecord = withSpecRecord(model, driver, {
  clauses: ['§2.home.tabs', '§2.ticket.startInviting', '§2.home.optionCards', '§2.invite.link'],
  start: (): HomeRecord => ({ tab: 'getTicket', codes: null, sharing: false, chosen: 'ticket' }),
  next: (x, event): HomeRecord => {
    switch (event.type) {
      // §2: the 'Invite' tab, and 'Start Inviting Friends' (with access), switch to the Invite
      // tab whatever card was chosen on the landing.
      case 'home.showInvite':
        return onInvite(x);
      case 'home.showTicket':
        return { ...x, tab: 'getTicket', codes: null, sharing: false };
      case 'home.offerChosen':
        return { ...x, chosen: event.offer };
      // §2 option cards: 'Invite 2 friends' opens the signed-in home on the Invite tab, once.
      case 'home.shown':
        return x.tab === 'getTicket' && x.chosen === 'invite'
          ? { ...onInvite(x), chosen: 'ticket' }
          : x;
      case 'home.userChanged':
        return x.codes === 'loaded' || x.codes === 'failed' ? { ...x, codes: 'loading' } : x;
      case 'xstate.done.actor.inviteCodes':
        return { ...x, codes: 'loaded' };
      case 'xstate.error.actor.inviteCodes':
        return { ...x, codes: 'failed' };
      case 'invite.share':
        return x.tab === 'invite' ? { ...x, sharing: true } : x;
      case 'xstate.done.actor.shareLink':
      case 'xstate.error.actor.shareLink':
        return { ...x, sharing: false };
      case 'invite.copyLink':
        return x;
    }
  },
  check: (ctx, x) => {
    const s = ctx.actor.getSnapshot();
    const clause = x.tab === 'invite' ? '§2.ticket.startInviting' : '§2.home.tabs';
    specExpect(clause, selectActiveTab(s), 'the tab shown').toBe(x.tab);
    specExpect('§2.invite.link', selectCodesLoading(s), 'invite codes loading').toBe(
      x.codes === 'loading',
    );
    specExpect(
      '§2.invite.link',
      s.matches({ invite: { codes: 'failed' } }),
      'invite codes failed',
    ).toBe(x.codes === 'failed');
    specExpect('§2.invite.link', selectIsSharing(s), 'the share sheet open').toBe(x.sharing);
  },
});

testPaths(model, withRecord);

// §2 Get Ticket with access: 'Start Inviting Friends' switches to the Invite tab, whatever card
// the visitor chose on the landing (or none); generated paths send it only where the chart takes it.
const showInvite = { type: 'home.showInvite' } as const;
testSpecScenarios(model, withRecord, [
  {
    name: "'Start Inviting Friends' with no card chosen opens the Invite tab",
    events: [showInvite],
  },
  {
    name: "'Start Inviting Friends' after the Early Bird card opens the Invite tab",
    events: [{ type: 'home.offerChosen', offer: 'ticket' }, showInvite],
  },
  {
    name: "'Start Inviting Friends' after the card was used once opens the Invite tab again",
    events: [
      { type: 'home.offerChosen', offer: 'invite' },
      { type: 'home.shown' },
      { type: 'xstate.done.actor.inviteCodes', output: CODES, actorId: 'inviteCodes' },
      { type: 'home.showTicket' },
      showInvite,
    ],
  },
]);
