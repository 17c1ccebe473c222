import { createApiClient } from '../api/client';
import { storage } from '../platform/storage';

/**
 * The api client, in a module that needs neither React nor the machines. A pre-rendered page's
 * inline script has already sent the session's calls (src/app/bootInline.ts, `window.__smwBoot`);
 * the session chart's steps take them for their own calls (provideSession in ./compose.ts).
 */
export const api = createApiClient({ getSessionToken: () => storage.get('sessionToken') });
