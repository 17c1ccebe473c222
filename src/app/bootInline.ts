import { SESSION_MESSAGES } from '../../contract/messages';
import { defaultBaseUrl } from '../api/baseUrl';
import { storage } from '../platform/storage';
import { walkSessionPlan, type HeadBoot } from './headBoot';
import { opensSignedInHome } from './signedInHome';
import { sessionStartData } from './startData';
import { webFontsCached } from '../platform/webFonts';
import { listedFiles } from '../platform/pagePreloads';

/**
 * The session's first calls, sent from the document's head: the build compiles this module into
 * an inline script of every pre-rendered page (src/prerender), so sess/init leaves with the
 * document instead of after a script download. The order is the session chart's (§4 Session):
 * the build writes the chart's plan into this script (`__SESSION_PLAN__`,
 * machines/session/session.plan.ts) and ./headBoot.ts walks it with the browser's fetch, sending
 * ahead the steps the chart will reach when every answer is the expected one. The app's session
 * chart takes each exchange for its own step and reads it with the app's client (./compose.ts):
 * the chart, not this script, decides what each answer means. It reads storage and never writes
 * it.
 *
 * A signed-out visitor's page is the pre-rendered one: once the walk reaches the chart's loaded
 * step, the loader steps aside (§2 Loading overlay: until the session has loaded), before the
 * app's code has run.
 */
function bootFromHead(): HeadBoot {
  const base = defaultBaseUrl();
  const jwt = storage.get('jwt');
  const post = (path: string, payload: Record<string, unknown>, bearer?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(payload),
    });
  const { sent, walked, outcome } = walkSessionPlan({
    plan: __SESSION_PLAN__,
    post,
    storedSession: storage.get('sessionToken'),
    storedJwt: jwt,
    startData: () =>
      sessionStartData({
        language: navigator.language,
        userAgent: navigator.userAgent,
        search: window.location.search,
      }),
    now: () => Date.now(),
  });
  // A signed-in visitor's page is the app's to draw: its code runs at once. Any other page's
  // code runs once the session is known: a signed-out visitor's page is in view (the frame that
  // lifts the loader is drawn first), or the session failed and the app draws the spec's view.
  if (jwt) whenParsed(startApp);
  else
    void outcome.then((step) => {
      if (step === __SESSION_PLAN__.loaded) document.documentElement.dataset.session = 'loaded';
      afterNextFrame(() => whenParsed(startApp));
    });
  return { sent, walked };
}

/** Runs `run` once the document's markup has been read (the head's own tags included). */
function whenParsed(run: () => void): void {
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', run, { once: true });
  } else run();
}

/**
 * Runs `run` in a task after the next frame is drawn: a resize observer's first report comes as
 * the browser updates the rendering, and a message posted from it is read after that frame. Not
 * a timer (a page whose clock is held, as the tests hold it, still starts); a hidden page draws
 * no frames, so it runs at once.
 */
function afterNextFrame(run: () => void): void {
  const next = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  };
  if (document.visibilityState === 'hidden' || typeof ResizeObserver === 'undefined') {
    next();
    return;
  }
  const observer = new ResizeObserver(() => {
    observer.disconnect();
    next();
  });
  observer.observe(document.documentElement);
}

/**
 * Runs the app's entry, which the page preloads (marked `data-app-entry`, src/prerender): the
 * browser fetched and compiled it while the session's calls were under way. Once.
 */
function startApp(): void {
  const entry = document.querySelector<HTMLLinkElement>('link[data-app-entry]');
  if (!entry || document.querySelector('script[data-app-entry]')) return;
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = entry.href;
  script.setAttribute('data-app-entry', '');
  document.head.appendChild(script);
}

/** A new element of the page's own markup: its class and, when given, its text. */
function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * When the app's own code cannot load (the server went away after sending the page), nothing
 * would ever lift the loader or answer a tap: the loader becomes the spec's Connection Error view
 * (§8, the same markup src/views/shell/LoadingOverlay.tsx renders) with its Reload Page button.
 */
function reportCodeThatCannotLoad(): void {
  window.addEventListener(
    'error',
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLScriptElement || target instanceof HTMLLinkElement)) return;
      const src = target instanceof HTMLScriptElement ? target.src : target.href;
      if (!src.includes('/assets/') || window.__smwTaps?.hydrated) return;
      // A file fetched ahead (preload below) belongs to a part that loads on demand: that part
      // says so itself, with a Retry, when the app asks for it.
      if (target.hasAttribute('data-ahead')) return;
      const overlay = document.querySelector('.loading-overlay');
      if (!overlay || overlay.classList.contains('loading-overlay--error')) return;
      window.__smwTaps?.stop();
      window.__smwTapShell?.close();
      delete document.documentElement.dataset.session;
      overlay.className = 'loading-overlay loading-overlay--error';
      overlay.setAttribute('role', 'alertdialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-labelledby', 'connection-error-title');
      overlay.setAttribute('aria-describedby', 'connection-error-text');
      overlay.removeAttribute('aria-live');
      overlay.removeAttribute('aria-busy');
      const logo = overlay.querySelector('.logo');
      const title = element('h1', 'loading-overlay__title', 'Connection Error');
      title.id = 'connection-error-title';
      const text = element('p', 'loading-overlay__text', SESSION_MESSAGES.connect);
      text.id = 'connection-error-text';
      const reload = element('button', 'loading-overlay__button', 'Reload Page');
      reload.type = 'button';
      reload.addEventListener('click', () => window.location.reload());
      overlay.replaceChildren(...(logo ? [logo] : []), title, text, reload);
    },
    true,
  );
}

/**
 * Fetches ahead the files a page lists under `key` in its #smw-tap-preloads block (the build
 * writes it before this script, src/prerender): modules as modulepreloads, CSS as style preloads.
 * Unknown keys and pages without the block fetch nothing. Files marked `ahead` belong to parts
 * that load on demand and report their own failure.
 */
function preload(key: string | null, ahead = true): void {
  if (!key) return;
  for (const href of listedFiles(key)) {
    const link = document.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else if (href.endsWith('.woff2')) {
      link.rel = 'preload';
      link.as = 'font';
      link.type = 'font/woff2';
    } else {
      link.rel = 'modulepreload';
    }
    link.crossOrigin = '';
    if (ahead) link.setAttribute('data-ahead', '');
    link.href = href;
    document.head.appendChild(link);
  }
}

/** The dialogs a held tap opens at once, before the app runs: the sign-in dialog's frame. */
const TAP_SHELLS: Record<string, { title: string; text: string }> = {
  'sign-in': { title: 'Sign In', text: 'Log in or register your account' },
};

/**
 * A held tap (the tap keeper, index.html) on a control that opens a dialog draws that dialog's
 * frame at once (`TAP_SHELLS`, by the control's `data-tap-preload` key): the dialog's title over
 * the dimmed page, busy, while the app's code arrives. The app's own dialog takes its place when
 * it is drawn (the keeper replays the tap, focus back on the tapped control first, so the dialog
 * gives focus back to it when it closes). Close and Escape drop the held tap; a tap on the dimmed
 * page does nothing (a double tap on Get Access keeps the dialog coming).
 */
function tapShell(): NonNullable<Window['__smwTapShell']> {
  let shell: HTMLElement | null = null;
  let frame: HTMLElement | null = null;
  let watcher: MutationObserver | null = null;
  let tapped: HTMLElement | null = null;
  // The replayed control, for the app's dialog to give focus back to when it closes: focus
  // stays in the frame until the app's dialog takes it, so it never sees the control focused.
  let returnTo: HTMLElement | null = null;
  const close = () => {
    watcher?.disconnect();
    watcher = null;
    document.removeEventListener('keydown', onKey, true);
    shell?.remove();
    shell = null;
    frame = null;
    tapped = null;
  };
  const cancel = () => {
    const control = tapped;
    close();
    returnTo = null;
    window.__smwTaps?.cancel();
    control?.focus({ preventScroll: true });
  };
  // Escape drops the tap; Tab and Shift+Tab stay in the frame (its one control, the close
  // button, and the frame itself), as in the app's dialog.
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    } else if (event.key === 'Tab' && frame) {
      event.preventDefault();
      const closeButton = frame.querySelector<HTMLElement>('.signin-close');
      (document.activeElement === closeButton ? frame : (closeButton ?? frame)).focus({
        preventScroll: true,
      });
    }
  };
  const open = (control: HTMLElement) => {
    const copy = TAP_SHELLS[control.getAttribute('data-tap-preload') ?? ''];
    if (!copy || shell) return;
    const backdrop = element('div', 'signin-backdrop');
    const dialog = element('div', 'signin-dialog tap-shell__dialog');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-busy', 'true');
    dialog.setAttribute('aria-labelledby', 'tap-shell-title');
    dialog.tabIndex = -1;
    const closeButton = element('button', 'signin-close', '×');
    closeButton.type = 'button';
    closeButton.setAttribute('aria-label', 'Close');
    closeButton.addEventListener('click', cancel);
    const title = element('h2', 'signin-title', copy.title);
    title.id = 'tap-shell-title';
    const spinner = element('span', 'loading-overlay__spinner');
    spinner.setAttribute('aria-hidden', 'true');
    dialog.append(closeButton, title, element('p', 'signin-subtitle', copy.text), spinner);
    backdrop.append(dialog);
    document.addEventListener('keydown', onKey, true);
    // Gone as soon as the app draws a dialog of its own (the sign-in dialog, or its part's
    // failure notice).
    watcher = new MutationObserver(() => {
      if (document.querySelector('[role="dialog"]:not(.tap-shell__dialog)')) close();
    });
    watcher.observe(document.body, { childList: true, subtree: true });
    shell = backdrop;
    frame = dialog;
    tapped = control;
    returnTo = null;
    document.body.append(backdrop);
    dialog.focus({ preventScroll: true });
  };
  // The keeper replays the held tap on `control`: while the frame is up, focus stays in it (a
  // Tab while the app's dialog loads stays in the frame), and the app's dialog gives focus back
  // to the control when it closes (takeReturn).
  const replaying = (control: HTMLElement) => {
    if (!frame) return;
    returnTo = control;
    frame.focus({ preventScroll: true });
  };
  const takeReturn = () => {
    const control = returnTo;
    returnTo = null;
    return control?.isConnected ? control : null;
  };
  return { open, close, replaying, takeReturn };
}

reportCodeThatCannotLoad();
window.__smwTapShell = tapShell();
window.__smwPreload = preload;
// The site's own faces, once this browser has them (src/platform/webFonts.ts): read from its
// cache with the document, ready for the first layout (an `optional` face read later is never
// used for the page).
if (webFontsCached()) preload('fonts');
window.__smwBoot = bootFromHead();
// The app's second stage (React and the views, src/app/mount.tsx) leaves right after the
// session's calls: on the browser's few connections to this host the calls go first. Unlike a
// part fetched ahead, the page cannot run without it (a failure shows the Connection Error view).
preload('app', false);
// With a stored jwt, Home is the signed-in home (src/views/home/HomePage.tsx), a chunk of its
// own that the app would ask for only after its first render: its files leave with the page's.
// The pre-rendered landing page it will not show stays out of layout under the loader
// (`data-signed-in-home`, src/views/shell/loading-overlay.css) until the app draws the page.
if (opensSignedInHome(storage, window.location.pathname)) {
  document.documentElement.dataset.signedInHome = '';
  preload('signed-in');
}
