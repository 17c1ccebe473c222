// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createActor } from 'xstate';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import * as notes from '../../machines/notifications/notifications.selectors';
import type { NotificationsEvent } from '../../machines/notifications/notifications.types';
import { InformationBanner } from '../../src/views/overlays/InformationBanner';
import { Toast } from '../../src/views/overlays/Toast';
import { VideoModal } from '../../src/views/overlays/VideoModal';
import { SPEC_LIMITS, SPEC_TIMERS } from '../support/oracle';
import { regionClock } from '../support/overlays/regionClock';
import {
  actorDriver,
  checkModelProperty,
  checkProperty,
  defineModel,
  specExpect,
  testPaths,
  withView,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * Toast messages here are plain text: the HTML path (DOMPurify) is exercised in Chromium by
 * tests/e2e/xss.spec.ts, because happy-dom's NodeIterator drops nodes next to removed ones.
 *
 * The queue cap is 99 in the app; the generated graph runs with a cap of 2 so it stays finite while
 * still reaching "full queue, oldest dropped" and a queue whose order matters (the drivers keep the
 * spec's queue beside the machine's and compare them after every step). The real cap is checked at its boundary below
 * (99 and 100 queued, on the machine as the app starts it). Timers are fired by the oracle's
 * durations: a toast or banner timer of any other length has no pending timeout to fire.
 */
const input = { queueCap: 2 };

const model = defineModel({
  name: 'notifications',
  machine: notificationsMachine,
  required: SPEC_TRANSITIONS.notifications,
  input,
  events: {
    'notify.show': [
      { message: 'Saved', messageType: 'success' },
      { message: 'Read the docs', messageType: 'info', router_link: '/docs/intro' },
    ],
    'notify.dismiss': [{}],
    'notify.open': [{}],
    'notify.clear': [{}],
    'info.show': [{ message: 'Please enter valid e-mail address.', messageType: 'error' }],
    'info.dismiss': [{}],
    // §2 "optional autoplay": a second video while one is open replaces it.
    'video.open': [{ src: '/promo.mp4', autoplay: true }, { src: '/trailer.mp4' }],
    'video.close': [{}],
  },
  outcomes: {
    'xstate.after.notificationDuration.notifications.toast.showing': [{}],
    'xstate.after.informationDuration.notifications.banner.visible': [{}],
  },
  // Three regions multiply: 457 shortest paths with two video sources.
  paths: { simple: false, maxPaths: 500 },
  uncovered: {
    'notifications.toast.hidden':
      'transient: a clicked toast leaves it within the same step (to the next queued toast or idle); both exits are covered',
  },
});

function setupActor() {
  const clock = regionClock();
  const navigations: string[] = [];
  const actor = createActor(
    notificationsMachine.provide({
      actions: { navigate: (_, { to }) => void navigations.push(to) },
    }),
    { input, clock },
  );
  actor.start();
  /** §4 written as a plain queue: one toast shows, the rest wait in order, the oldest dropped. */
  const spec: SpecQueue<SpecToast> = { current: null, queue: [] };
  /** §2/§3: the banner and the video modal as the events left them. */
  const overlays: SpecOverlays = { banner: null, video: null };
  return { actor, clock, navigations, spec, overlays };
}
type Ctx = ReturnType<typeof setupActor>;

/** The spec's toast queue after a toast is asked for, and after the shown one leaves. */
type SpecQueue<T = string> = { current: T | null; queue: T[] };
type SpecOverlays = {
  banner: { message: string; messageType: string } | null;
  video: { src: string; autoplay: boolean } | null;
};
const specShow = <T,>(spec: SpecQueue<T>, message: T) => {
  if (spec.current === null) spec.current = message;
  else spec.queue.push(message);
  if (spec.queue.length > input.queueCap) spec.queue.shift();
};
const specNext = <T,>(spec: SpecQueue<T>) => {
  spec.current = spec.queue.shift() ?? null;
};
const specClear = <T,>(spec: SpecQueue<T>) => {
  spec.current = null;
  spec.queue = [];
};

/** A toast as §3 describes it: message, type and the router_link it may carry. */
type SpecToast = { message: string; messageType: string; router_link?: string };
const toastOf = (event: { message: string; messageType: string; router_link?: string }) => ({
  message: event.message,
  messageType: event.messageType,
  ...(event.router_link ? { router_link: event.router_link } : {}),
});

/**
 * In every state, through what the views read: the toast shown and the ones waiting are the
 * spec's, in order (§4 one at a time, 3.5 s each, older ones dropped past the cap); the banner
 * and the video are what the last events asked for.
 */
const specState = (ctx: Ctx) => {
  const snap = ctx.actor.getSnapshot();
  const live = snap.context;
  const spec = ctx.spec;
  const toast = '§2.toast.queue';
  specExpect(
    '§4.notify.cap',
    [live.current, ...live.queue],
    'toasts shown one at a time, in the order asked, older ones dropped past the cap',
  ).toEqual([spec.current, ...spec.queue]);
  specExpect(toast, notes.selectToastVisible(snap), 'toast shown').toBe(spec.current !== null);
  specExpect(toast, notes.selectToastMessage(snap), 'toast message').toBe(
    spec.current?.message ?? '',
  );
  specExpect(toast, notes.selectToastType(snap), 'toast type').toBe(
    spec.current?.messageType ?? 'default',
  );
  specExpect(toast, notes.selectToastHasLink(snap), 'toast router_link').toBe(
    Boolean(spec.current?.router_link),
  );
  specExpect(toast, notes.selectQueuedCount(snap), 'count badge').toBe(spec.queue.length);
  const { banner, video } = ctx.overlays;
  const info = '§4.banner.duration';
  specExpect(info, notes.selectBannerVisible(snap), 'banner shown').toBe(banner !== null);
  specExpect(info, notes.selectBannerMessage(snap), 'banner message').toBe(banner?.message ?? '');
  specExpect(info, notes.selectBannerType(snap), 'banner type').toBe(
    banner?.messageType ?? 'default',
  );
  specExpect(
    info,
    ctx.clock.pending().filter((d) => d === SPEC_TIMERS.informationBanner),
    'banner timers of 5 s running',
  ).toHaveLength(banner ? 1 : 0);
  specExpect('§2.video.modal', notes.selectVideoOpen(snap), 'video open').toBe(video !== null);
  specExpect('§2.video.modal', notes.selectVideoSrc(snap), 'video source').toBe(video?.src ?? '');
  specExpect('§2.video.modal', notes.selectVideoAutoplay(snap), 'video autoplay').toBe(
    video?.autoplay ?? false,
  );
};

/**
 * What §3/§4 say each event does, folded into the test's own record (never read from the chart).
 * A toast click opens its router_link when it has one, otherwise only hides it.
 */
type ModelEvent =
  | NotificationsEvent
  | { type: 'xstate.after.notificationDuration.notifications.toast.showing' }
  | { type: 'xstate.after.informationDuration.notifications.banner.visible' };
const expectAfter = (ctx: Ctx, event: ModelEvent) => {
  switch (event.type) {
    case 'notify.show':
      return specShow(ctx.spec, toastOf(event));
    case 'notify.dismiss':
    case 'notify.open':
    case 'xstate.after.notificationDuration.notifications.toast.showing':
      return specNext(ctx.spec);
    case 'notify.clear':
      return specClear(ctx.spec);
    case 'info.show':
      ctx.overlays.banner = { message: event.message, messageType: event.messageType };
      return;
    case 'info.dismiss':
    case 'xstate.after.informationDuration.notifications.banner.visible':
      ctx.overlays.banner = null;
      return;
    case 'video.open':
      ctx.overlays.video = { src: event.src, autoplay: event.autoplay ?? false };
      return;
    case 'video.close':
      ctx.overlays.video = null;
      return;
  }
};

/** Sends the event to the actor (or fires its timer by the oracle's duration). */
const sendToActor = (ctx: Ctx, event: ModelEvent) => {
  if (event.type === 'xstate.after.notificationDuration.notifications.toast.showing')
    ctx.clock.fire(SPEC_TIMERS.notification);
  else if (event.type === 'xstate.after.informationDuration.notifications.banner.visible')
    ctx.clock.fire(SPEC_TIMERS.informationBanner);
  else ctx.actor.send(event);
};

const step =
  (perform: (ctx: Ctx, event: ModelEvent) => void) =>
  ({ ctx, event }: { ctx: Ctx; event: ModelEvent }) => {
    const link = ctx.spec.current?.router_link;
    const count = ctx.navigations.length;
    expectAfter(ctx, event);
    perform(ctx, event);
    // §3: a toast with a router_link opens it on click; one without only hides.
    if (event.type === 'notify.open') expect(ctx.navigations.slice(count)).toEqual([link]);
    else expect(ctx.navigations.length, 'no navigation').toBe(count);
  };

const actorStep = step(sendToActor);
const actorEvents = {
  'notify.show': actorStep,
  'notify.dismiss': actorStep,
  'notify.open': actorStep,
  'notify.clear': actorStep,
  'info.show': actorStep,
  'info.dismiss': actorStep,
  'video.open': actorStep,
  'video.close': actorStep,
  'xstate.after.notificationDuration.notifications.toast.showing': actorStep,
  'xstate.after.informationDuration.notifications.banner.visible': actorStep,
} satisfies Executors<typeof model, Ctx>;

const actorPaths = actorDriver(model, {
  setup: setupActor,
  events: actorEvents,
  clauses: {
    '*': ['§4.notify.duration', '§4.notify.cap', '§4.banner.duration', '§2.video.modal'],
    'toast.showing': ['§2.toast.queue'],
  },
  states: {
    '*': ({ ctx }) => specState(ctx),
    'toast.showing': ({ ctx }) => {
      // Exactly one toast timer runs while a toast shows.
      expect(
        ctx.clock.pending().filter((d) => d === SPEC_TIMERS.notification),
        '§4: a toast shows for 3.5 s (exactly one 3500 ms timer runs)',
      ).toHaveLength(1);
    },
  },
});

testPaths(model, actorPaths);

// The same paths through the rendered overlays, as a player sees and clicks them.
const click = (element: () => HTMLElement) =>
  step(() =>
    act(() => {
      fireEvent.click(element());
    }),
  );
const viewStep = step((ctx, event) => act(() => sendToActor(ctx, event)));
const viewEvents = {
  // What the player clicks: the toast, the badge's clear icon, the banner, the video's close.
  'notify.dismiss': click(() => screen.getByTestId('toast')),
  'notify.open': click(() => screen.getByTestId('toast')),
  'notify.clear': click(() => screen.getByRole('button', { name: /Clear all notifications/ })),
  'info.dismiss': click(() => screen.getByTestId('info-banner')),
  'video.close': click(() => screen.getByRole('button', { name: 'Close video' })),
  'notify.show': viewStep,
  'info.show': viewStep,
  'video.open': viewStep,
  'xstate.after.notificationDuration.notifications.toast.showing': viewStep,
  'xstate.after.informationDuration.notifications.banner.visible': viewStep,
} satisfies Executors<typeof model, Ctx>;

/** What the player sees, against the test's own record of the spec. */
const checkView = (ctx: Ctx) => {
  const { current, queue } = ctx.spec;
  const { banner: information, video } = ctx.overlays;
  const toast = screen.queryByTestId('toast');
  if (current) {
    expect(toast).not.toBeNull();
    expect(screen.getByTestId('toast-message').textContent).toBe(current.message);
    expect(toast?.className).toContain(`toast--${current.messageType}`);
    const badge = screen.queryByTestId('toast-badge');
    if (queue.length > 0) expect(badge?.textContent).toContain(String(queue.length));
    else expect(badge).toBeNull();
  } else {
    expect(toast).toBeNull();
  }
  const banner = screen.queryByTestId('info-banner');
  if (information) {
    expect(banner?.textContent).toBe(information.message);
    expect(banner?.className).toContain(`info-banner--${information.messageType}`);
  } else {
    expect(banner).toBeNull();
  }
  const player = screen.queryByTestId('video-player');
  if (video) {
    expect(screen.getByRole('dialog', { name: 'Promo video' })).toBeInTheDocument();
    expect(player?.getAttribute('src')).toBe(video.src);
    expect((player as HTMLVideoElement | null)?.autoplay).toBe(video.autoplay);
  } else {
    expect(player).toBeNull();
  }
  specState(ctx);
};

/** The actor's setup, then the views that read it, rendered. */
const renderedView = withView(setupActor, (ctx) => (
  <>
    <InformationBanner actor={ctx.actor} />
    <Toast actor={ctx.actor} />
    <VideoModal actor={ctx.actor} />
  </>
));

const viewDriver = actorDriver(model, {
  setup: renderedView,
  events: viewEvents,
  states: { '*': ({ ctx }) => checkView(ctx) },
});

testPaths(model, viewDriver, 'view');

it('toasts show one at a time, in the order asked; past the cap the oldest waiting is dropped', () => {
  // Distinct messages, so an order mistake shows; the spec's queue is folded from the events.
  const shows = ['first', 'second', 'third'].map((message) => ({
    type: 'notify.show' as const,
    message,
    messageType: 'info' as const,
  }));
  const others = model.events.map((e) => e.event).filter((e) => e.type !== 'notify.show');
  checkProperty('notifications: toasts in the order asked', {
    machine: notificationsMachine,
    input,
    events: [...shows, ...others],
    maxEvents: 40,
    invariant: ({ snapshot, history }) => {
      const spec: SpecQueue = { current: null, queue: [] };
      for (const event of history) {
        if (event.type === 'notify.show')
          specShow(spec, String((event as { message?: unknown }).message));
        else if (
          event.type === 'notify.dismiss' ||
          event.type === 'notify.open' ||
          event.type.startsWith('xstate.after.notificationDuration')
        )
          specNext(spec);
        else if (event.type === 'notify.clear') specClear(spec);
      }
      const { context } = snapshot;
      expect([context.current?.message ?? null, ...context.queue.map((n) => n.message)]).toEqual([
        spec.current,
        ...spec.queue,
      ]);
    },
  });
});

it('the queue never exceeds its cap, and a toast shows whenever one waits', () => {
  checkModelProperty('notifications: cap and no idle queue', model, {
    input,
    maxEvents: 40,
    invariant: ({ snapshot }) =>
      snapshot.context.queue.length <= input.queueCap &&
      (snapshot.context.queue.length === 0 || snapshot.matches({ toast: 'showing' })) &&
      snapshot.matches({ toast: 'showing' }) === (snapshot.context.current !== null),
  });
});

it('§4 queue cap at its boundary: 99 queued are all kept; the 100th drops the oldest', () => {
  const actor = createActor(notificationsMachine, { input: undefined, clock: regionClock() });
  actor.start();
  const show = (n: number) =>
    actor.send({ type: 'notify.show', message: `n${n}`, messageType: 'info' });
  show(0); // on screen
  for (let n = 1; n <= SPEC_LIMITS.notificationQueueCap; n++) show(n);
  let live = actor.getSnapshot().context;
  specExpect('§4.notify.cap', live.current?.message, 'the toast shown').toBe('n0');
  specExpect('§4.notify.cap', live.queue, 'toasts waiting').toHaveLength(99);
  specExpect('§4.notify.cap', notes.selectQueuedCount(actor.getSnapshot()), 'count badge').toBe(99);
  specExpect('§4.notify.cap', live.queue[0]?.message, 'oldest waiting').toBe('n1');
  show(100);
  live = actor.getSnapshot().context;
  specExpect('§4.notify.cap', live.queue, 'toasts waiting').toHaveLength(99);
  specExpect('§4.notify.cap', live.queue[0]?.message, 'oldest waiting').toBe('n2');
  specExpect('§4.notify.cap', live.queue.at(-1)?.message, 'newest waiting').toBe('n100');
  actor.stop();
});
