import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { calendarFromEnv } from './contract/calendar';
import { chunkName } from './src/prerender/appChunk';
import { buildClock } from './src/prerender/buildClock';
import { compileHintsPlugin } from './src/prerender/compileHintsPlugin';
import { fetchedPreloadsPlugin } from './src/prerender/fetchedPreloads';
import { prerenderPlugin } from './src/prerender/prerenderPlugin';
import { stacklessSentinelsPlugin } from './src/prerender/stacklessSentinels';
import { docsPlugin } from './src/views/docs/build/docsPlugin';

// One build time for the client build and the pre-render's nested SSR build (same process): the
// dated copy of the pre-rendered pages and of their hydration reads this clock. It is the commit's
// time unless given (src/prerender/buildClock.ts): one commit builds the same files every time.
const CLOCK = buildClock(process.env, import.meta.dirname);
if (CLOCK.source === 'clock' && !process.env.SMW_PRERENDER_NESTED)
  console.warn(
    'Not a git checkout and no SMW_BUILT_AT or SOURCE_DATE_EPOCH: this build dates itself by the clock and is not reproducible.',
  );
process.env.SMW_BUILT_AT = String(CLOCK.at);
const BUILT_AT = CLOCK.at;
// The launch calendar of the build: the same variables the server reads (contract/calendar.ts).
const BUILT_CALENDAR = calendarFromEnv(process.env);

export default defineConfig({
  define: {
    __SMW_BUILT_AT__: JSON.stringify(BUILT_AT),
    __SMW_CALENDAR__: JSON.stringify(BUILT_CALENDAR),
  },
  plugins: [
    react(),
    docsPlugin(resolve(import.meta.dirname, 'docs-content')),
    prerenderPlugin(),
    compileHintsPlugin(),
    stacklessSentinelsPlugin(),
    fetchedPreloadsPlugin(),
  ],
  resolve: {
    // @xstate/react imports the useSyncExternalStore shims written for React 17; React 19 has the
    // hook, so the shims resolve to React's own (less initial JS on the landing page).
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector.js',
      },
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: resolve(import.meta.dirname, 'src/platform/reactSyncExternalStore.ts'),
      },
    ],
  },
  build: {
    target: 'es2022',
    // Every browser the site supports preloads modules itself (Chromium, Firefox 115+, Safari
    // 17+); an older one still runs the page, its modules fetched as they are imported.
    modulePreload: { polyfill: false },
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger files: they compress better than the small shared chunks the lazy routes
        // and overlays would split off, and take fewer of the browser's connections.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // React with the app's second stage in one file, and the small modules the signed-in
            // home shares with later parts in another (src/prerender/appChunk.ts).
            { name: chunkName, debugName: 'app parts' },
          ],
        },
      },
    },
  },
  server: { port: 5173 },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/support/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The server's test layer again, each server's store a database of the run's own
        // PostgreSQL (tests/support/postgres-global-setup.ts).
        extends: true,
        test: {
          name: 'server-postgres',
          include: ['tests/unit/server/**/*.test.ts', 'tests/postgres/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          setupFiles: ['tests/support/setup.ts', 'tests/support/postgres-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/support/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
