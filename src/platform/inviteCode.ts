/**
 * Invite codes (§2 routes /r/{code} and /ref/{code}, the home page's `?i=`, §5, §9): a code from a
 * link is sanitised and stored under the `codeInvite` key; when none exists, a random fallback is
 * sent instead. The fallback lives for the page only and is never stored, so `codeInvite` holds
 * nothing but codes that came from a link (the ones the sign-in modal shows).
 */
import { sanitizeInviteCode } from '../../contract/inviteCode';
import { storage as browserStorage, type KeyValueStorage } from './storage';

/**
 * The code of an invite link's path segment (`/r/{code}`) as the player's link spelled it: the
 * address bar's percent-escapes decoded first, so `ab%20cd` is `ab cd` (→ `abcd`), never `ab20cd`.
 * A malformed escape is dropped rather than read as letters.
 */
export function inviteCodeOfPathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment.replace(/%[0-9A-Fa-f]{0,2}/g, '');
  }
}

/**
 * Stores the sanitised code when it is non-empty; returns the stored code, or null when the
 * raw value held no letters or digits (then nothing is stored).
 */
export function storeInviteCode(
  raw: string | null | undefined,
  storage: KeyValueStorage = browserStorage,
): string | null {
  const code = sanitizeInviteCode(raw ?? '');
  if (!code) return null;
  storage.set('codeInvite', code);
  return code;
}

export function readInviteCode(storage: KeyValueStorage = browserStorage): string | null {
  const stored = storage.get('codeInvite');
  const code = stored ? sanitizeInviteCode(stored) : '';
  return code || null;
}

/**
 * Codes of invite links opened in this page (`/r/{code}`, `/ref/{code}`, the home page's `?i=`),
 * for the invitation service, which checks each before it is kept (machines/invitation): the
 * service's listener, or the code that waits for it.
 */
let linkCodes: ((code: string) => void) | string = '';

/** An invite link was opened: its code as the link spelled it (the service cleans it). */
export function offerLinkCode(raw: string): void {
  if (typeof linkCodes == 'string') linkCodes = raw || linkCodes;
  else linkCodes(raw);
}

/** The home page's `?i=` (a full `location.search` string) is offered like a link's code. */
export const offerSearchCode = (search: string): void =>
  offerLinkCode(new URLSearchParams(search).get('i') ?? '');

/** The invitation service hears the codes offered, first the one waiting; returns the stop. */
export function onLinkCode(listener: (code: string) => void): () => void {
  const waiting = linkCodes;
  linkCodes = listener;
  if (typeof waiting == 'string' && waiting) listener(waiting);
  return () => {
    if (linkCodes === listener) linkCodes = '';
  };
}

/** The raw code of an invite link's path (`/r/{code}`, `/ref/{code}`), or null for another path. */
export const inviteCodeOfPath = (pathname: string): string | null =>
  /^\/(?:r|ref)\/([^/]+)\/?$/.exec(pathname)?.[1] ?? null;
