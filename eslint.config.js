import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'build',
      '.local',
      '.data',
      'reports',
      'test-results',
      'docs/machines',
      '.stryker-tmp',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // contract/ is what the site, the machines and the server share: plain data and pure
    // functions that run anywhere, so no DOM, no node built-ins and no imports from the rest
    // (valibot, its schema library, runs in both).
    files: ['contract/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./|valibot$).*',
              message:
                'contract/ imports only contract/* and valibot: it must run in the browser and in node.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'fetch']
          .concat(['WebSocket', 'process', 'Buffer', 'require', 'global', '__dirname'])
          .map((name) => ({ name, message: 'contract/ must stay pure: no DOM, no node.' })),
      ],
    },
  },
  {
    // The server shares only contract/ with the site.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src|machines)/',
              message:
                'server/ imports the shared contract from contract/, nothing from src/ or machines/.',
            },
          ],
        },
      ],
    },
  },
  {
    // machines/ is pure behaviour: it may import xstate and other machines, nothing else.
    files: ['machines/**/*.ts'],
    ignores: ['machines/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!xstate$|xstate/|\\.{1,2}/|machines/).*',
              message: 'machines/ imports only xstate and machines/*: provide the rest from src/.',
            },
            {
              regex: '^\\.\\./\\.\\./(src|server|tests)',
              message: 'machines/ imports only xstate and machines/*.',
            },
          ],
        },
      ],
      // One way to address a service that may be absent (docs/layout.md): XState delivers a send
      // whose target resolves to nothing to the sender itself, so a target is never computed in
      // the send: a service by its systemId through sendToService (machines/systemIds.ts), a
      // ref held in context after an explicit `if (ref)`.
      'no-restricted-syntax': [
        'error',
        ...['CallExpression[callee.name="sendTo"]', 'CallExpression[callee.property.name="sendTo"]']
          .flatMap((send) => [
            `${send}[arguments.0.type="ArrowFunctionExpression"]`,
            `${send}[arguments.0.type="FunctionExpression"]`,
          ])
          .map((selector) => ({
            selector,
            message:
              'A send whose target is computed falls back to the sender itself when it resolves to nothing: use sendToService(queue, SYSTEM_IDS.x, event), or check a ref held in context first.',
          })),
        {
          selector: 'LogicalExpression[right.type="Identifier"][right.name="self"]',
          message: 'No fallback to self: send only when the service runs (sendToService).',
        },
        {
          selector: 'CallExpression[callee.object.name="system"][callee.property.name="get"]',
          message:
            'Look a service up only in sendToService (machines/systemIds.ts), which sends when it runs.',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'machines/ must stay pure: provide it from src/.' },
        { name: 'document', message: 'machines/ must stay pure: provide it from src/.' },
        { name: 'localStorage', message: 'machines/ must stay pure: provide it from src/.' },
        { name: 'fetch', message: 'machines/ must stay pure: provide it from src/.' },
        { name: 'WebSocket', message: 'machines/ must stay pure: provide it from src/.' },
        { name: 'navigator', message: 'machines/ must stay pure: provide it from src/.' },
      ],
    },
  },
);
