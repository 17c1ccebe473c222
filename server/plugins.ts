import type { ServerPlugin } from './context';
import { metricsPlugin } from './metrics';
import { realtimePlugin } from './realtime/plugin';
import { paymentPlugin } from './routes/payment';

/**
 * Optional parts of the server, set up in this order before it listens (the local chain and
 * its /rpc, websocket rooms, then /metrics, which counts the others' calls). Each part adds
 * itself here with one import and one entry.
 */
export const PLUGINS: readonly ServerPlugin[] = [paymentPlugin, realtimePlugin, metricsPlugin];
