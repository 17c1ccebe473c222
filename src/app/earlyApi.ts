import { createApiClient } from '../api/client';
import { storage } from '../platform/storage';

/**
 * The api client and the session's first call, in a module that needs neither React nor the
 * machines: the page's loader runs it ahead of the rest of the app (an entry of its own in
 * vite.config.ts), so sess/init travels while the larger code is still downloading. The session
 * machine takes this answer for its first init (src/app/compose.ts, `earlySessInit`).
 */
export const api = createApiClient({ getSessionToken: () => storage.get('sessionToken') });

export const earlySessInit = api.call('sessInit', {});
// A failure is the session machine's to report when it takes the answer, not an unhandled
// rejection before then.
earlySessInit.catch(() => {});
