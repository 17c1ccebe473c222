import { createApiClient } from '../api/client';
import { storage } from '../platform/storage';
import { startEarlySession } from './earlySession';

/**
 * The api client and the session's first answers, in a module that needs neither React nor the
 * machines. A pre-rendered page's inline script has already sent the session's calls
 * (src/app/bootInline.ts); this reads them with the app's client and adds user/data for a stored
 * jwt (./earlySession.ts). Nothing here decides anything for the page: the session machine takes
 * each answer for the matching step (src/app/compose.ts) and still checks the version, writes
 * storage and reports errors.
 */
export const api = createApiClient({ getSessionToken: () => storage.get('sessionToken') });

export const earlySession = startEarlySession({
  api,
  storage,
  // Pre-rendered pages sent the first calls from their head (src/app/bootInline.ts).
  ...(window.__smwBoot ? { sent: window.__smwBoot } : {}),
});
