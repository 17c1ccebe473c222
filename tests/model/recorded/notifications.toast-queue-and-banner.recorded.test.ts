// Recorded in the machine visualiser (/__machines) and saved with "Save as test".
// Replays every step against machines/notifications and compares each snapshot.
import * as source from '../../../machines/notifications/notifications.machine';
import { replayRecording } from '../../support/paths/recording';

replayRecording(source, {
  machine: 'notifications',
  startedAt: 1795692632141,
  input: {},
  initial: {
    value: {
      toast: 'idle',
      banner: 'hidden',
      video: 'closed',
    },
    status: 'active',
    context: {
      current: null,
      queue: [],
      queueCap: 99,
      information: null,
      video: null,
    },
  },
  steps: [
    {
      kind: 'event',
      at: 1795692632148,
      event: {
        type: 'notify.show',
        message: 'Code sent',
        messageType: 'success',
      },
      changed: {
        value: {
          toast: 'showing',
        },
        context: {
          current: {
            message: 'Code sent',
            messageType: 'success',
          },
        },
      },
    },
    {
      kind: 'event',
      at: 1795692632150,
      event: {
        type: 'notify.show',
        message: 'Wallet connected',
        messageType: 'info',
      },
      changed: {
        context: {
          queue: [
            {
              message: 'Wallet connected',
              messageType: 'info',
            },
          ],
        },
      },
    },
    {
      kind: 'event',
      at: 1795692632151,
      event: {
        type: 'info.show',
        message: 'Transaction cancelled',
        messageType: 'warning',
      },
      changed: {
        value: {
          banner: 'visible',
        },
        context: {
          information: {
            message: 'Transaction cancelled',
            messageType: 'warning',
          },
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632151,
      delay: 'notificationDuration',
      ms: 3500,
      beforeDue: {},
      changed: {
        context: {
          current: {
            message: 'Wallet connected',
            messageType: 'info',
          },
          queue: [],
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632153,
      delay: 'informationDuration',
      ms: 1500,
      beforeDue: {},
      changed: {
        value: {
          banner: 'hidden',
        },
        context: {
          information: null,
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632153,
      delay: 'notificationDuration',
      ms: 2000,
      beforeDue: {},
      changed: {
        value: {
          toast: 'idle',
        },
        context: {
          current: null,
        },
      },
    },
  ],
});
