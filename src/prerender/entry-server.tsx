import { Writable } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { createApiClient } from '../api/client';
import { AppProvider } from '../app/AppProvider';
import { appInput, composeApp } from '../app/compose';
import { createStorage } from '../platform/storage';
import { Shell } from '../views/shell/Shell';
import { DOCS } from 'virtual:docs-index';

/**
 * Build-time rendering of the pages that ship as static HTML: `/` and every `/docs/*` page.
 * The root actor is created but never started, so nothing calls the API: the HTML is the very
 * first client render (session loading, signed out, countdown cards reserved), which the browser
 * then hydrates.
 */
export const PRERENDERED_PATHS = ['/', ...DOCS.map((d) => `/docs/${d.id}`)];

export async function render(path: string): Promise<string> {
  const storage = createStorage(() => null);
  const api = createApiClient({
    baseUrl: 'http://prerender.invalid/',
    getSessionToken: () => null,
  });
  const logic = composeApp({ api, storage });
  const input = appInput(storage, { language: 'en', user_agent: '' });
  const { prelude } = await prerenderToNodeStream(
    <Router ssrPath={path}>
      <AppProvider logic={logic} input={input}>
        <Shell />
      </AppProvider>
    </Router>,
  );
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    prelude
      .pipe(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(Buffer.from(chunk));
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}
