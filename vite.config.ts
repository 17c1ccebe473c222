import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { prerenderPlugin } from './src/prerender/prerenderPlugin';
import { docsPlugin } from './src/views/docs/build/docsPlugin';

export default defineConfig({
  plugins: [react(), docsPlugin(resolve(import.meta.dirname, 'docs-content')), prerenderPlugin()],
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // The libraries every page needs in one initial chunk: fewer, larger files compress
        // better than the small shared chunks the lazy routes and overlays would split off.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules\/(react|react-dom|scheduler|xstate|@xstate|use-sync-external-store|wouter|ky)\//,
            },
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
