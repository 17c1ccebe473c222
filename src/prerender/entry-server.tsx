import { Writable } from 'node:stream';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { appMachine } from '../../machines/app/app.machine';
import { AppProvider } from '../app/AppProvider';
import type { AppInput } from '../../machines/app/app.types';
import { EMPTY_STORED } from '../../machines/shared/stored';
import { Shell } from '../views/shell/Shell';
import { DOCS } from 'virtual:docs-index';
import { docsMeta, HOME_META, NOT_FOUND_META, type PageMeta } from '../views/shell/pageMeta';

/**
 * Build-time rendering of the pages that ship as static HTML: `/`, every `/docs/*` page and the
 * page for unknown routes (`/404`, served with status 404).
 * The root actor is the bare app machine, created but never started: no implementation is
 * needed and nothing calls the API. The HTML is the very first client render (session loading,
 * signed out, countdown cards reserved), which the browser then hydrates.
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
  const { prelude } = await prerenderToNodeStream(
    <Router ssrPath={path}>
      <AppProvider logic={appMachine} input={input}>
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
