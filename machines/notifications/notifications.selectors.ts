import type { SnapshotFrom } from 'xstate';
import type { notificationsMachine } from './notifications.machine';
import type { MessageType } from './notifications.types';

export type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>;

// Toast
export const selectToastVisible = (s: NotificationsSnapshot): boolean =>
  s.matches({ toast: 'showing' });
export const selectToastMessage = (s: NotificationsSnapshot): string =>
  s.context.current?.message ?? '';
export const selectToastType = (s: NotificationsSnapshot): MessageType =>
  s.context.current?.messageType ?? 'default';
export const selectToastHasLink = (s: NotificationsSnapshot): boolean =>
  Boolean(s.context.current?.router_link);
/** How many toasts wait behind the one on screen (the badge; hidden when 0). */
export const selectQueuedCount = (s: NotificationsSnapshot): number => s.context.queue.length;

// Information banner
export const selectBannerVisible = (s: NotificationsSnapshot): boolean =>
  s.matches({ banner: 'visible' });
export const selectBannerMessage = (s: NotificationsSnapshot): string =>
  s.context.information?.message ?? '';
export const selectBannerType = (s: NotificationsSnapshot): MessageType =>
  s.context.information?.messageType ?? 'default';

// Video modal
export const selectVideoOpen = (s: NotificationsSnapshot): boolean => s.matches({ video: 'open' });
export const selectVideoSrc = (s: NotificationsSnapshot): string => s.context.video?.src ?? '';
export const selectVideoAutoplay = (s: NotificationsSnapshot): boolean =>
  s.context.video?.autoplay ?? false;
