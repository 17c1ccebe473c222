import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { ConnectionStatus } from './ConnectionStatus';

/** The connection indicator bound to the running app's realtime service (shell Overlays slot). */
export function ConnectionStatusOverlay() {
  return <ConnectionStatus actor={useService(SYSTEM_IDS.realtime)} />;
}
