// Recorded with the sandbox behind the machine visualiser (/__machines), saved as "Save as test" writes it.
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
      snapshot: {
        value: {
          toast: 'showing',
          banner: 'hidden',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Code sent',
            messageType: 'success',
          },
          queue: [],
          queueCap: 99,
          information: null,
          video: null,
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
      snapshot: {
        value: {
          toast: 'showing',
          banner: 'hidden',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Code sent',
            messageType: 'success',
          },
          queue: [
            {
              message: 'Wallet connected',
              messageType: 'info',
            },
          ],
          queueCap: 99,
          information: null,
          video: null,
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
      snapshot: {
        value: {
          toast: 'showing',
          banner: 'visible',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Code sent',
            messageType: 'success',
          },
          queue: [
            {
              message: 'Wallet connected',
              messageType: 'info',
            },
          ],
          queueCap: 99,
          information: {
            message: 'Transaction cancelled',
            messageType: 'warning',
          },
          video: null,
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632151,
      delay: 'notificationDuration',
      ms: 3500,
      beforeDue: {
        value: {
          toast: 'showing',
          banner: 'visible',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Code sent',
            messageType: 'success',
          },
          queue: [
            {
              message: 'Wallet connected',
              messageType: 'info',
            },
          ],
          queueCap: 99,
          information: {
            message: 'Transaction cancelled',
            messageType: 'warning',
          },
          video: null,
        },
      },
      snapshot: {
        value: {
          toast: 'showing',
          banner: 'visible',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Wallet connected',
            messageType: 'info',
          },
          queue: [],
          queueCap: 99,
          information: {
            message: 'Transaction cancelled',
            messageType: 'warning',
          },
          video: null,
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632153,
      delay: 'informationDuration',
      ms: 1500,
      beforeDue: {
        value: {
          toast: 'showing',
          banner: 'visible',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Wallet connected',
            messageType: 'info',
          },
          queue: [],
          queueCap: 99,
          information: {
            message: 'Transaction cancelled',
            messageType: 'warning',
          },
          video: null,
        },
      },
      snapshot: {
        value: {
          toast: 'showing',
          banner: 'hidden',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Wallet connected',
            messageType: 'info',
          },
          queue: [],
          queueCap: 99,
          information: null,
          video: null,
        },
      },
    },
    {
      kind: 'delay',
      at: 1795692632153,
      delay: 'notificationDuration',
      ms: 2000,
      beforeDue: {
        value: {
          toast: 'showing',
          banner: 'hidden',
          video: 'closed',
        },
        status: 'active',
        context: {
          current: {
            message: 'Wallet connected',
            messageType: 'info',
          },
          queue: [],
          queueCap: 99,
          information: null,
          video: null,
        },
      },
      snapshot: {
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
    },
  ],
});
