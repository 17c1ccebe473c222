import { assertEvent, assign, not, setup } from 'xstate';
import {
  INFORMATION_MS,
  NOTIFICATION_MS,
  QUEUE_CAP,
  type NavigateParams,
  type Notification,
  type NotificationsContext,
  type NotificationsEvent,
  type NotificationsInput,
} from './notifications.types';

const toNotification = (event: NotificationsEvent): Notification => {
  assertEvent(event, 'notify.show');
  return {
    message: event.message,
    messageType: event.messageType,
    ...(event.router_link ? { router_link: event.router_link } : {}),
  };
};

/**
 * Three independent regions:
 * - toast: idle ⇄ showing; one toast at a time for 3.5 s, the rest queued (cap 99, oldest dropped);
 * - banner: hidden ⇄ visible; cleared after 5 s or on click;
 * - video: closed ⇄ open.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as NotificationsInput | undefined,
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    showIncoming: assign({ current: ({ event }) => toNotification(event) }),
    enqueueIncoming: assign({
      queue: ({ context, event }) =>
        [...context.queue, toNotification(event)].slice(-context.queueCap),
    }),
    showNextQueued: assign({
      current: ({ context }) => context.queue[0] ?? null,
      queue: ({ context }) => context.queue.slice(1),
    }),
    clearToasts: assign({ current: null, queue: [] }),
    storeInformation: assign({
      information: ({ event }) => {
        assertEvent(event, 'info.show');
        return { message: event.message, messageType: event.messageType };
      },
    }),
    clearInformation: assign({ information: null }),
    storeVideo: assign({
      video: ({ event }) => {
        assertEvent(event, 'video.open');
        return { src: event.src, autoplay: event.autoplay ?? false };
      },
    }),
    clearVideo: assign({ video: null }),
  },
  guards: {
    hasQueued: ({ context }) => context.queue.length > 0,
    hasRouterLink: ({ context }) => Boolean(context.current?.router_link),
  },
  delays: {
    notificationDuration: NOTIFICATION_MS,
    informationDuration: INFORMATION_MS,
  },
}).createMachine({
  id: 'notifications',
  context: ({ input }) => ({
    current: null,
    queue: [],
    queueCap: input?.queueCap ?? QUEUE_CAP,
    information: null,
    video: null,
  }),
  type: 'parallel',
  states: {
    toast: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'notify.show': { target: 'showing', actions: 'showIncoming' },
          },
        },
        showing: {
          after: {
            notificationDuration: [
              { guard: 'hasQueued', target: 'showing', reenter: true, actions: 'showNextQueued' },
              { target: 'idle', actions: 'clearToasts' },
            ],
          },
          on: {
            'notify.show': { actions: 'enqueueIncoming' },
            'notify.open': {
              guard: 'hasRouterLink',
              target: 'hidden',
              actions: {
                type: 'navigate',
                params: ({ context }) => ({ to: context.current?.router_link ?? '/' }),
              },
            },
            'notify.dismiss': { guard: not('hasRouterLink'), target: 'hidden' },
            // The clear icon exists only on the badge, which shows only while toasts wait.
            'notify.clear': { guard: 'hasQueued', target: 'idle', actions: 'clearToasts' },
          },
        },
        /** Transient: the clicked toast is gone; the next queued one (if any) takes its place. */
        hidden: {
          always: [
            { guard: 'hasQueued', target: 'showing', actions: 'showNextQueued' },
            { target: 'idle', actions: 'clearToasts' },
          ],
        },
      },
    },
    banner: {
      initial: 'hidden',
      states: {
        hidden: {
          on: {
            'info.show': { target: 'visible', actions: 'storeInformation' },
          },
        },
        visible: {
          after: {
            informationDuration: { target: 'hidden', actions: 'clearInformation' },
          },
          on: {
            'info.show': { target: 'visible', reenter: true, actions: 'storeInformation' },
            'info.dismiss': { target: 'hidden', actions: 'clearInformation' },
          },
        },
      },
    },
    video: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'video.open': { target: 'open', actions: 'storeVideo' },
          },
        },
        open: {
          on: {
            'video.open': { actions: 'storeVideo' },
            'video.close': { target: 'closed', actions: 'clearVideo' },
          },
        },
      },
    },
  },
});
