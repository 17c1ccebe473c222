import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useMemberService } from '../../app/hooks';
import { ConnectionStatus } from './ConnectionStatus';

/**
 * The connection indicator bound to the running app's realtime service (shell Overlays slot);
 * nothing until the member services are running.
 */
export function ConnectionStatusOverlay() {
  const realtime = useMemberService(SYSTEM_IDS.realtime);
  return realtime ? <ConnectionStatus actor={realtime} /> : null;
}
