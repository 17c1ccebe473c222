import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import * as notes from '../../machines/notifications/notifications.selectors';
import {
  INFORMATION_MS,
  NOTIFICATION_MS,
  QUEUE_CAP,
} from '../../machines/notifications/notifications.types';

const start = () => {
  const navigations: string[] = [];
  const actor = createActor(
    notificationsMachine.provide({
      actions: { navigate: (_, { to }) => void navigations.push(to) },
    }),
    { input: {} },
  ).start();
  return { actor, navigations };
};

const notify = (message: string, router_link?: string) =>
  ({
    type: 'notify.show',
    message,
    messageType: 'info',
    ...(router_link ? { router_link } : {}),
  }) as const;

describe('notifications machine: toast queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses the spec constants: 3.5 s per toast, 99 queued, banner 5 s', () => {
    expect([NOTIFICATION_MS, QUEUE_CAP, INFORMATION_MS]).toEqual([3_500, 99, 5_000]);
  });

  it('shows queued toasts one at a time for 3.5 s each, the badge counting down', () => {
    const { actor } = start();
    for (let i = 1; i <= 5; i += 1) actor.send(notify(`n${i}`));
    const seen: Array<[string, number]> = [];
    for (let i = 1; i <= 5; i += 1) {
      const s = actor.getSnapshot();
      seen.push([notes.selectToastMessage(s), notes.selectQueuedCount(s)]);
      vi.advanceTimersByTime(NOTIFICATION_MS - 1);
      expect(notes.selectToastMessage(actor.getSnapshot())).toBe(`n${i}`);
      vi.advanceTimersByTime(1);
    }
    expect(seen).toEqual([
      ['n1', 4],
      ['n2', 3],
      ['n3', 2],
      ['n4', 1],
      ['n5', 0],
    ]);
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
  });

  it('keeps at most 99 queued, dropping the oldest', () => {
    const { actor } = start();
    for (let i = 1; i <= 120; i += 1) actor.send(notify(`n${i}`));
    expect(notes.selectToastMessage(actor.getSnapshot())).toBe('n1');
    expect(notes.selectQueuedCount(actor.getSnapshot())).toBe(99);
    vi.advanceTimersByTime(NOTIFICATION_MS);
    // n2..n21 were the oldest waiting ones, dropped.
    expect(notes.selectToastMessage(actor.getSnapshot())).toBe('n22');
    expect(notes.selectQueuedCount(actor.getSnapshot())).toBe(98);
  });

  it('a toast without a router_link does not open', () => {
    const { actor, navigations } = start();
    actor.send(notify('plain'));
    actor.send({ type: 'notify.open' });
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(true);
    expect(navigations).toEqual([]);
  });

  it('clear empties the queue and hides the toast [§2.toast.queue]', () => {
    const { actor } = start();
    for (let i = 1; i <= 3; i += 1) actor.send(notify(`n${i}`));
    actor.send({ type: 'notify.clear' });
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
    expect(notes.selectQueuedCount(actor.getSnapshot())).toBe(0);
    vi.advanceTimersByTime(NOTIFICATION_MS * 4);
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
  });

  it('a click hides the toast; the next queued one then shows for a full 3.5 s', () => {
    const { actor, navigations } = start();
    actor.send(notify('first'));
    actor.send(notify('second'));
    vi.advanceTimersByTime(3_000);
    actor.send({ type: 'notify.dismiss' });
    expect(notes.selectToastMessage(actor.getSnapshot())).toBe('second');
    vi.advanceTimersByTime(NOTIFICATION_MS - 1);
    expect(notes.selectToastMessage(actor.getSnapshot())).toBe('second');
    actor.send({ type: 'notify.dismiss' });
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
    expect(navigations).toEqual([]);
  });

  it('a click on a toast with a router_link navigates there and hides it', () => {
    const { actor, navigations } = start();
    actor.send(notify('See the docs', '/docs/intro'));
    actor.send({ type: 'notify.open' });
    expect(navigations).toEqual(['/docs/intro']);
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
  });

  it('carries the type; default when nothing shows', () => {
    const { actor } = start();
    expect(notes.selectToastType(actor.getSnapshot())).toBe('default');
    actor.send({ type: 'notify.show', message: 'Loading', messageType: 'load' });
    expect(notes.selectToastType(actor.getSnapshot())).toBe('load');
  });
});

describe('notifications machine: information banner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the banner and clears it after 5 s', () => {
    const { actor } = start();
    actor.send({
      type: 'info.show',
      message: 'Please enter valid e-mail address.',
      messageType: 'error',
    });
    expect(notes.selectBannerVisible(actor.getSnapshot())).toBe(true);
    expect(notes.selectBannerMessage(actor.getSnapshot())).toBe(
      'Please enter valid e-mail address.',
    );
    expect(notes.selectBannerType(actor.getSnapshot())).toBe('error');
    vi.advanceTimersByTime(INFORMATION_MS - 1);
    expect(notes.selectBannerVisible(actor.getSnapshot())).toBe(true);
    vi.advanceTimersByTime(1);
    expect(notes.selectBannerVisible(actor.getSnapshot())).toBe(false);
    expect(notes.selectBannerMessage(actor.getSnapshot())).toBe('');
  });

  it('a new message replaces the banner and restarts its 5 s; a click hides it', () => {
    const { actor } = start();
    actor.send({ type: 'info.show', message: 'one', messageType: 'info' });
    vi.advanceTimersByTime(4_000);
    actor.send({ type: 'info.show', message: 'two', messageType: 'warning' });
    vi.advanceTimersByTime(4_000);
    expect(notes.selectBannerMessage(actor.getSnapshot())).toBe('two');
    actor.send({ type: 'info.dismiss' });
    expect(notes.selectBannerVisible(actor.getSnapshot())).toBe(false);
  });

  it('banner and toast run independently', () => {
    const { actor } = start();
    actor.send(notify('toast'));
    actor.send({ type: 'info.show', message: 'banner', messageType: 'success' });
    vi.advanceTimersByTime(NOTIFICATION_MS);
    expect(notes.selectToastVisible(actor.getSnapshot())).toBe(false);
    expect(notes.selectBannerVisible(actor.getSnapshot())).toBe(true);
  });
});

describe('notifications machine: video modal', () => {
  it('opens with a source and optional autoplay; closes', () => {
    const { actor } = start();
    actor.send({ type: 'video.open', src: '/promo.mp4', autoplay: true });
    expect(notes.selectVideoOpen(actor.getSnapshot())).toBe(true);
    expect(notes.selectVideoSrc(actor.getSnapshot())).toBe('/promo.mp4');
    expect(notes.selectVideoAutoplay(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'video.close' });
    expect(notes.selectVideoOpen(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'video.open', src: '/other.mp4' });
    expect(notes.selectVideoAutoplay(actor.getSnapshot())).toBe(false);
  });
});
