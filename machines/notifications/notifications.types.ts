import type { ServiceInput } from '../shared/stored';

/**
 * Global messages of §2/§3/§4: the toast notification queue, the information banner, and the
 * video modal's open state. One service, systemId `notifications` (SYSTEM_IDS.notifications).
 *
 * How other flows talk to it (`sendToService(queue, SYSTEM_IDS.notifications, event)`, which
 * sends only while the service runs). The spec's
 * `type` field of a message travels as `messageType`, since `type` names the event:
 *
 *   { type: 'notify.show', message, messageType, router_link? }  a toast; queued while one shows
 *   { type: 'info.show', message, messageType }                  the bottom information banner
 *   { type: 'video.open', src, autoplay? }                       the video modal
 *
 * Validation messages go to the banner, for example from the sign-in machine:
 *
 *   enqueueActions((queue) => sendToService(queue, SYSTEM_IDS.notifications, {
 *     type: 'info.show',
 *     message: 'Please enter valid e-mail address.',
 *     messageType: 'error',
 *   }))
 *
 * The toast message is HTML (sanitised by the view before rendering); the banner message is
 * plain text.
 */

/** Types of §2: success, error, warning, info, load (spinner) and the default style. */
export type MessageType = 'success' | 'error' | 'warning' | 'info' | 'load' | 'default';

export const MESSAGE_TYPES: readonly MessageType[] = [
  'success',
  'error',
  'warning',
  'info',
  'load',
  'default',
];

/** A toast notification (§3 Notification: message, type, router_link). */
export type Notification = {
  message: string;
  messageType: MessageType;
  /** In-app path the toast navigates to when clicked. */
  router_link?: string;
};

/** The information banner's content (§3 Information: message, type). */
export type Information = {
  message: string;
  messageType: MessageType;
};

/** What the video modal plays. */
export type Video = {
  src: string;
  autoplay: boolean;
};

export type NotifyShowEvent = { type: 'notify.show' } & Notification;
export type InfoShowEvent = { type: 'info.show' } & Information;
export type VideoOpenEvent = { type: 'video.open'; src: string; autoplay?: boolean };

export type NotificationsEvent =
  /** Intent: show a toast (queued while another shows). */
  | NotifyShowEvent
  /** Intent: a toast without a router_link was clicked: hide it. */
  | { type: 'notify.dismiss' }
  /** Intent: a toast with a router_link was clicked: navigate there and hide it. */
  | { type: 'notify.open' }
  /** Intent: the badge's clear icon was clicked: empty the queue and hide the toast. */
  | { type: 'notify.clear' }
  /** Intent: show the information banner (replaces the current one, restarts its 5 s). */
  | InfoShowEvent
  /** Intent: the banner was clicked: hide it. */
  | { type: 'info.dismiss' }
  /** Intent: open the video modal. */
  | VideoOpenEvent
  /** Intent: close the video modal (close button or overlay click). */
  | { type: 'video.close' };

export type NotificationsContext = {
  /** The toast on screen, or null. */
  current: Notification | null;
  /** Toasts waiting behind the current one, oldest first; at most `queueCap`. */
  queue: Notification[];
  /** How many may wait: QUEUE_CAP (99); generated path tests use a small cap to keep the graph finite. */
  queueCap: number;
  /** The banner's content while shown. */
  information: Information | null;
  /** The video modal's source while open. */
  video: Video | null;
};

/** The app spawns the service with `{ stored }`; only `queueCap` is read (default QUEUE_CAP). */
export type NotificationsInput = Partial<ServiceInput> & { queueCap?: number };

/** Parameters of the provided `navigate` action (wouter's navigate, from src/). */
export type NavigateParams = { to: string };

/** §4/§9: each toast shows 3.5 s; at most 99 wait (the oldest dropped); the banner clears after 5 s. */
export const NOTIFICATION_MS = 3_500;
export const QUEUE_CAP = 99;
export const INFORMATION_MS = 5_000;
