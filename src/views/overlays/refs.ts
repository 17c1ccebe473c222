import type { ActorRefFrom } from 'xstate';
import type { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import type { errorModalMachine } from '../../../machines/errorModal/errorModal.machine';
import type { notificationsMachine } from '../../../machines/notifications/notifications.machine';
import type { themeMachine } from '../../../machines/theme/theme.machine';

/** The services the overlays read, as actor references. */
export type NotificationsRef = ActorRefFrom<typeof notificationsMachine>;
export type ErrorModalRef = ActorRefFrom<typeof errorModalMachine>;
export type ThemeRef = ActorRefFrom<typeof themeMachine>;
export type CopyFeedbackRef = ActorRefFrom<typeof copyFeedbackMachine>;
