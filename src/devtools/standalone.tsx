import { createRoot } from 'react-dom/client';
import Visualiser from './Visualiser';

/**
 * /__machines on its own: src/main.tsx calls this instead of starting the site's app, so the
 * visualiser's tab runs no root actor of its own and every live actor it lists is one of the site
 * open in another tab of the same browser. The pre-rendered page and its loader are replaced.
 */
export function mountVisualiser(root: HTMLElement): void {
  root.replaceChildren();
  delete root.dataset.prerendered;
  delete document.documentElement.dataset.signedInHome;
  document.documentElement.dataset.session = 'loaded';
  document.title = 'Machines · Solana Mafia Wars';
  createRoot(root).render(<Visualiser />);
  // The page's tap keeper (it holds the first tap until the site's app answers) stands down:
  // the visualiser answers taps itself.
  window.__smwTaps?.stop();
}
