// @vitest-environment happy-dom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import {
  selectQueuedCount,
  selectToastMessage,
} from '../../machines/notifications/notifications.selectors';
import { InformationBanner } from '../../src/views/overlays/InformationBanner';
import { Toast } from '../../src/views/overlays/Toast';
import { VideoModal } from '../../src/views/overlays/VideoModal';
import { SPEC_LIMITS, SPEC_TIMERS } from '../support/oracle';
import { regionClock } from '../support/overlays/regionClock';
import {
  checkProperty,
  defineModel,
  testPaths,
  type Driver,
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
    'video.open': [{ src: '/promo.mp4', autoplay: true }],
    'video.close': [{}],
  },
  outcomes: {
    'xstate.after.notificationDuration.notifications.toast.showing': [{}],
    'xstate.after.informationDuration.notifications.banner.visible': [{}],
  },
  paths: { simple: false },
  uncovered: {
    'notifications.toast.hidden':
      'transient: a clicked toast leaves it within the same step (to the next queued toast or idle); both exits are covered',
  },
});

type Snapshot = SnapshotFrom<typeof notificationsMachine>;

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
  const spec: SpecQueue = { current: null, queue: [] };
  return { actor, clock, navigations, spec };
}
type Ctx = ReturnType<typeof setupActor>;

/** The spec's toast queue after a toast is asked for, and after the shown one leaves. */
type SpecQueue = { current: string | null; queue: string[] };
const specShow = (spec: SpecQueue, message: string) => {
  if (spec.current === null) spec.current = message;
  else spec.queue.push(message);
  if (spec.queue.length > input.queueCap) spec.queue.shift();
};
const specNext = (spec: SpecQueue) => {
  spec.current = spec.queue.shift() ?? null;
};
const specClear = (spec: SpecQueue) => {
  spec.current = null;
  spec.queue = [];
};

/** The toast shown and the ones waiting are the spec's, in order (§4 one at a time, 3.5 s each). */
const specQueue = (ctx: Ctx) => {
  const live = ctx.actor.getSnapshot().context;
  expect(
    [live.current?.message ?? null, ...live.queue.map((n) => n.message)],
    '§4 notifications shown one at a time, in the order asked, older ones dropped past the cap',
  ).toEqual([ctx.spec.current, ...ctx.spec.queue]);
};

/** Whatever the path, the live actor carries the same toast, queue, banner and video as the model. */
const sameContext = (ctx: Ctx, snapshot: Snapshot) => {
  const live = ctx.actor.getSnapshot().context;
  expect(live.current).toEqual(snapshot.context.current);
  expect(live.queue).toEqual(snapshot.context.queue);
  expect(live.information).toEqual(snapshot.context.information);
  expect(live.video).toEqual(snapshot.context.video);
};

const actorEvents = {
  'notify.show': ({ ctx, event }) => {
    specShow(ctx.spec, event.message);
    ctx.actor.send(event);
  },
  'notify.dismiss': ({ ctx, event }) => {
    const count = ctx.navigations.length;
    specNext(ctx.spec);
    ctx.actor.send(event);
    expect(ctx.navigations.length).toBe(count);
  },
  'notify.open': ({ ctx, event }) => {
    const link = ctx.actor.getSnapshot().context.current?.router_link;
    specNext(ctx.spec);
    ctx.actor.send(event);
    expect(ctx.navigations.at(-1)).toBe(link);
  },
  'notify.clear': ({ ctx, event }) => {
    specClear(ctx.spec);
    ctx.actor.send(event);
  },
  'info.show': ({ ctx, event }) => ctx.actor.send(event),
  'info.dismiss': ({ ctx, event }) => ctx.actor.send(event),
  'video.open': ({ ctx, event }) => ctx.actor.send(event),
  'video.close': ({ ctx, event }) => ctx.actor.send(event),
  'xstate.after.notificationDuration.notifications.toast.showing': ({ ctx }) => {
    specNext(ctx.spec);
    ctx.clock.fire(SPEC_TIMERS.notification);
  },
  'xstate.after.informationDuration.notifications.banner.visible': ({ ctx }) =>
    ctx.clock.fire(SPEC_TIMERS.informationBanner),
} satisfies Executors<typeof model, Ctx>;

const actorDriver: Driver<typeof model, Ctx> = {
  setup: setupActor,
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events: actorEvents,
  states: {
    '*': ({ ctx, snapshot }) => {
      sameContext(ctx, snapshot);
      specQueue(ctx);
    },
    'toast.showing': ({ ctx }) => {
      // Exactly one toast timer runs while a toast shows.
      expect(
        ctx.clock.pending().filter((d) => d === SPEC_TIMERS.notification),
        '§4: a toast shows for 3.5 s (exactly one 3500 ms timer runs)',
      ).toHaveLength(1);
    },
  },
};

testPaths(model, actorDriver);

// The same paths through the rendered overlays, as a player sees and clicks them.
const viewEvents = {
  ...actorEvents,
  // A click on the toast: it opens its router_link when it has one, otherwise it only hides.
  'notify.dismiss': ({ ctx }) => {
    const count = ctx.navigations.length;
    act(() => {
      fireEvent.click(screen.getByTestId('toast'));
    });
    expect(ctx.navigations.length).toBe(count);
  },
  'notify.open': ({ ctx }) => {
    const link = ctx.actor.getSnapshot().context.current?.router_link;
    act(() => {
      fireEvent.click(screen.getByTestId('toast'));
    });
    expect(ctx.navigations.at(-1)).toBe(link);
  },
  'notify.clear': () => {
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: /Clear all notifications/ }));
    });
  },
  'info.dismiss': () => {
    act(() => {
      fireEvent.click(screen.getByTestId('info-banner'));
    });
  },
  'video.close': () => {
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Close video' }));
    });
  },
  'notify.show': ({ ctx, event }) => act(() => void ctx.actor.send(event)),
  'info.show': ({ ctx, event }) => act(() => void ctx.actor.send(event)),
  'video.open': ({ ctx, event }) => act(() => void ctx.actor.send(event)),
  'xstate.after.notificationDuration.notifications.toast.showing': ({ ctx }) =>
    act(() => ctx.clock.fire(SPEC_TIMERS.notification)),
  'xstate.after.informationDuration.notifications.banner.visible': ({ ctx }) =>
    act(() => ctx.clock.fire(SPEC_TIMERS.informationBanner)),
} satisfies Executors<typeof model, Ctx>;

const checkView = (ctx: Ctx, snapshot: Snapshot) => {
  const { current, queue, information, video } = snapshot.context;
  const toast = screen.queryByTestId('toast');
  if (snapshot.matches({ toast: 'showing' }) && current) {
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
  if (snapshot.matches({ banner: 'visible' }) && information) {
    expect(banner?.textContent).toBe(information.message);
    expect(banner?.className).toContain(`info-banner--${information.messageType}`);
  } else {
    expect(banner).toBeNull();
  }
  const player = screen.queryByTestId('video-player');
  if (snapshot.matches({ video: 'open' }) && video) {
    expect(screen.getByRole('dialog', { name: 'Promo video' })).toBeInTheDocument();
    expect(player?.getAttribute('src')).toBe(video.src);
    expect((player as HTMLVideoElement | null)?.autoplay).toBe(video.autoplay);
  } else {
    expect(player).toBeNull();
  }
  expect(selectToastMessage(ctx.actor.getSnapshot())).toBe(current?.message ?? '');
  expect(selectQueuedCount(ctx.actor.getSnapshot())).toBe(queue.length);
};

const viewDriver: Driver<typeof model, Ctx> = {
  setup: () => {
    const ctx = setupActor();
    render(
      <>
        <InformationBanner actor={ctx.actor} />
        <Toast actor={ctx.actor} />
        <VideoModal actor={ctx.actor} />
      </>,
    );
    return ctx;
  },
  teardown: ({ actor }) => {
    actor.stop();
  },
  actual: ({ actor }) => actor.getSnapshot(),
  events: viewEvents,
  states: { '*': ({ ctx, snapshot }) => checkView(ctx, snapshot) },
};

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
  checkProperty('notifications: cap and no idle queue', {
    machine: notificationsMachine,
    input,
    events: model.events.map((e) => e.event),
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
  expect(live.current?.message).toBe('n0');
  expect(live.queue).toHaveLength(99);
  expect(selectQueuedCount(actor.getSnapshot())).toBe(99);
  expect(live.queue[0]?.message).toBe('n1');
  show(100);
  live = actor.getSnapshot().context;
  expect(live.queue).toHaveLength(99);
  expect(live.queue[0]?.message).toBe('n2');
  expect(live.queue.at(-1)?.message).toBe('n100');
  actor.stop();
});
