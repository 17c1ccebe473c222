import { Writable } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { createApiClient } from '../api/client';
import { createAppActor } from '../app/appActor';
import { AppActorProvider } from '../app/AppProvider';
import type { AppInput } from '../../machines/app/app.types';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { createStorage } from '../platform/storage';
import { Shell } from '../views/shell/Shell';
import { DOCS } from 'virtual:docs-index';
import { docsMeta, HOME_META, NOT_FOUND_META, type PageMeta } from '../views/shell/pageMeta';

/**
 * Build-time rendering of the pages that ship as static HTML: `/`, every `/docs/*` page and the
 * page for unknown routes (`/404`, served with status 404).
 * The root actor is the site's own (src/app/appActor.ts, as src/main.tsx builds it) over an empty
 * storage, created but never started: nothing calls the API. The HTML is the very first client
 * render (session loading, signed out, countdown cards reserved), which the browser then hydrates.
 */
export const NOT_FOUND_PATH = '/404';
export const PRERENDERED_PATHS = ['/', ...DOCS.map((d) => `/docs/${d.id}`), NOT_FOUND_PATH];

/** The title and description each pre-rendered page carries in its head. */
export function metaOf(path: string): PageMeta {
  if (path === '/') return HOME_META;
  const doc = DOCS.find((d) => `/docs/${d.id}` === path);
  return doc ? docsMeta(doc.title) : NOT_FOUND_META;
}

export async function render(path: string): Promise<string> {
  const input: AppInput = { stored: EMPTY_STORED, startData: { language: 'en', user_agent: '' } };
  const storage = createStorage(() => null);
  const api = createApiClient({
    baseUrl: 'http://prerender.invalid/api/',
    getSessionToken: () => null,
  });
  const actor = await createAppActor({ deps: { api, storage }, input });
  const { prelude } = await prerenderToNodeStream(
    <Router ssrPath={path}>
      <AppActorProvider actor={actor}>
        <Shell />
      </AppActorProvider>
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
