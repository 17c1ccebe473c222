import type { ServerPlugin } from './context';
import { realtimePlugin } from './realtime/plugin';
import { paymentPlugin } from './routes/payment';

/**
 * Optional parts of the server, set up in this order before it listens (the local chain and
 * its /rpc, websocket rooms). Each part adds itself here with one import and one entry.
 */
export const PLUGINS: readonly ServerPlugin[] = [paymentPlugin, realtimePlugin];
