const HOME_HEADING = 'main h1';

/**
 * Focus follows the flow: when the dialog closes on a sign-in, its Get Access button is gone with
 * the landing and focus would drop to the body; the signed-in home's heading takes it as soon as
 * it has rendered (its chunk may still be loading). Focus the user moved elsewhere stays.
 */
export function focusHomeAfterSignIn(doc: Document = document) {
  const focusHeading = () => {
    const heading = doc.querySelector<HTMLElement>(HOME_HEADING);
    if (!heading || heading.closest('.landing')) return false;
    const active = doc.activeElement;
    if (!active || active === doc.body || !active.isConnected) {
      heading.tabIndex = -1;
      heading.focus();
    }
    return true;
  };
  if (focusHeading()) return;
  const watcher = new MutationObserver(() => {
    if (focusHeading()) watcher.disconnect();
  });
  watcher.observe(doc.body, { childList: true, subtree: true });
  // A home that never arrives (its chunk failed) leaves nothing behind for long.
  setTimeout(() => watcher.disconnect(), 60_000);
}
