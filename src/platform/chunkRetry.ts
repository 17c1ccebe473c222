import { reloadPage } from './location';

/**
 * Parts of the app that live in files of their own (the sign-in dialog, docs pages, the QR panel,
 * the overlays, the signed-in home, the member services, the wallet code) report here when their
 * file cannot load, with a way to ask again. The page then finds out which case it is in by
 * asking the server for that file:
 * - no answer (or a proxy's 502/503/504): the server is away. The parts wait and the page asks
 *   again by itself on the realtime backoff (1, 2, 4, 8, 16 s, then every 30 s), at once when the
 *   browser is back online or the player presses Retry, and loads the parts once it answers;
 * - an answer without the file (404): a new release replaced it. The page offers to update
 *   (Reload), which keeps the sign-in (stored).
 * This lives outside the actor system on purpose: the part that fails may be the one that
 * carries it (the app's second stage, the member services).
 */
/** `checking`: a part failed and the server is being asked which case it is. */
export type PartsState = 'ok' | 'checking' | 'outage' | 'replaced';

type Waiting = { retry: () => void; quiet: boolean };
const failed = new Map<string, Waiting>();
const listeners = new Set<() => void>();
let state: PartsState = 'ok';
/** Probes of the server since the outage began (the backoff's attempt). */
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
/** An address to ask the server for: the last file that could not load. */
let probeUrl: string | null = null;
/** Parts that failed again although the server had their file: they cannot be had here. */
const failedAfterAnswer = new Set<string>();
let cards = 0;

/** Read through a call: the state changes while a probe is on its way. */
const isReplaced = () => state === 'replaced';
const emit = () => listeners.forEach((listener) => listener());
const setState = (next: PartsState) => {
  if (state === next) return;
  state = next;
  emit();
};

/** How a probe's answer reads: the server is away, has the file, or answered without it. */
export type ProbeVerdict = 'no answer' | 'has it' | 'replaced';

/** Asks the server for `url` (HEAD, never from a cache). */
export async function probe(url: string): Promise<ProbeVerdict> {
  try {
    const answer = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    if (answer.ok) return 'has it';
    // A proxy in front of a stopped server answers for it: still no answer from the site.
    return answer.status >= 502 && answer.status <= 504 ? 'no answer' : 'replaced';
  } catch {
    return 'no answer';
  }
}

const pageUrl = () => (typeof window === 'undefined' ? '/' : window.location.href);

/**
 * The realtime connection's schedule (§4, §9: 1 s doubled per attempt for 5 attempts, then a
 * round every 30 s), written out here: importing the realtime module would bring it into the
 * first load. tests/unit/partsState.test.ts holds it equal to REALTIME and backoffDelay.
 */
const PROBE_SCHEDULE = { baseMs: 1_000, attempts: 5, restingMs: 30_000 } as const;

/** The wait before probe `n` (1-based) of an outage. */
export const probeDelay = (n: number): number =>
  n <= PROBE_SCHEDULE.attempts ? PROBE_SCHEDULE.baseMs * 2 ** (n - 1) : PROBE_SCHEDULE.restingMs;

function schedule(): void {
  clearTimeout(timer);
  attempt += 1;
  timer = setTimeout(() => void checkServer(), probeDelay(attempt));
}

/** Asks the server again now; loads the waiting parts when it answers. */
async function checkServer(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  // A replaced part never comes back on this page: only the offer's Reload brings it.
  if (isReplaced()) return;
  const verdict = await probe(probeUrl ?? pageUrl());
  if (isReplaced()) return;
  if (verdict === 'no answer') {
    setState('outage');
    schedule();
    return;
  }
  attempt = 0;
  if (verdict === 'replaced') {
    setState('replaced');
    return;
  }
  // Back after an outage: a part that fails now is a new case, asked about afresh.
  failedAfterAnswer.clear();
  setState('ok');
  retryChunks();
}

/**
 * A part could not load: `retry` asks for it again. `quiet` parts (decoration: game icons, the
 * celebration) are asked again with the others but never bring a notice of their own.
 */
export function chunkFailed(
  name: string,
  retry: () => void,
  error?: unknown,
  { quiet = false }: { quiet?: boolean } = {},
): void {
  failed.set(name, { retry, quiet });
  emit();
  // Known already: the part waits with the others for the server (or for the update).
  if (quiet || state === 'replaced' || state === 'outage') return;
  const url = failedModuleUrl(error);
  if (url) probeUrl = url;
  setState('checking');
  void probe(url ?? pageUrl()).then((verdict) => {
    if (state === 'replaced') return;
    if (verdict === 'replaced' || (verdict === 'has it' && failedAfterAnswer.has(name))) {
      setState('replaced');
      return;
    }
    if (verdict === 'has it') {
      // The server has it now (a blip): ask again once; a second failure means it cannot be had.
      failedAfterAnswer.add(name);
      setState('ok');
      retryChunks();
      return;
    }
    setState('outage');
    if (timer === undefined) schedule();
  });
}

/** Asks again for every part that could not load (after the server answered). */
function retryChunks(): void {
  const retries = [...failed.values()];
  failed.clear();
  healStylesheets();
  emit();
  retries.forEach(({ retry }) => retry());
}

/** The Retry button: asks the server at once (a fresh backoff), then loads what waits. */
export function retryNow(): void {
  attempt = 0;
  void checkServer();
}

/** Stylesheet links whose load failed (their `error` fired): asked for again with the parts. */
const failedStylesheets = new Set<HTMLLinkElement>();
if (typeof document !== 'undefined')
  document.addEventListener(
    'error',
    (event) => {
      const link = event.target;
      if (link instanceof HTMLLinkElement && link.rel === 'stylesheet') failedStylesheets.add(link);
    },
    true,
  );

/**
 * A fresh link for each part's stylesheet that failed with the server, so the part's styles come
 * with it on the retry (the bundler's loader skips an href already on the page). Only failed
 * ones: a link still loading has a loader waiting on its own events.
 */
function healStylesheets(): void {
  failedStylesheets.forEach((link) => {
    if (link.isConnected) link.replaceWith(link.cloneNode());
  });
  failedStylesheets.clear();
}

if (typeof window !== 'undefined')
  window.addEventListener('online', () => {
    if (state === 'outage') retryNow();
  });

/**
 * The update offer's Reload: the new release. The sign-in is stored and stays; no field the
 * player types into can be on screen with the offer unsaved (the sign-in dialog's fields belong to
 * a part that loaded, and its code step ends in a stored sign-in before the home is asked for).
 */
export function reloadForUpdate(): void {
  reloadPage();
}

/** Calls `listener` whenever a part fails, is asked for again, or the state changes. */
export const subscribeChunkFailures = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** What the page knows: all parts load, it is asking, the server is away, or a new release replaced them. */
export const partsState = (): PartsState => state;

/**
 * While the server is known to be away a part is not asked for (it fails at once and waits with
 * the others): a request that fails stays failed in the page's module map, with its imports.
 */
export const serverAway = (): boolean => state === 'outage';

/**
 * A part's own card is on screen (a page, a dialog or a panel that could not load): it says what
 * happened and carries the one button, so the corner notice steps aside while it shows. Returns
 * the release.
 */
export function showPageStandIn(): () => void {
  cards += 1;
  emit();
  return () => {
    cards -= 1;
    emit();
  };
}

/** The corner notice shows: a part with no card of its own waits, or the update is offered. */
export const showsCornerNotice = (): boolean =>
  cards === 0 &&
  (state === 'replaced' ||
    (state === 'outage' && [...failed.values()].some((waiting) => !waiting.quiet)));

/** The script address a failed `import()` names ("Failed to fetch dynamically imported module: …"). */
export function failedModuleUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/[^\s'"?#]+?\.m?js)\b/.exec(message)?.[1] ?? null;
}
