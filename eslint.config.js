import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      '.local',
      '.data',
      'reports',
      'test-results',
      'docs/machines',
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
