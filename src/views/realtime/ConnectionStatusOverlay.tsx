import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useMemberService } from '../../app/hooks';
import { loadedView } from '../common/loadedView';
import { retryableImport } from '../../platform/retryableImport';

/**
 * The indicator's code (with the realtime selectors and protocol constants it reads) is a chunk
 * of its own, asked for once the realtime service runs: the landing page's first load does not
 * carry the websocket protocol.
 */
const ConnectionStatus = loadedView(
  retryableImport(
    () => import('./ConnectionStatus'),
    (m) => m.ConnectionStatus,
  ),
  'connection status',
);

/**
 * The connection indicator bound to the running app's realtime service (shell Overlays slot);
 * nothing until the member services are running.
 */
export function ConnectionStatusOverlay() {
  const realtime = useMemberService(SYSTEM_IDS.realtime);
  return realtime ? <ConnectionStatus actor={realtime} fallback={null} /> : null;
}
