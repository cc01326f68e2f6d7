import js from '@eslint/js';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.node',
      'dist',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Every word a screen shows goes through the catalogue (src/shared/i18n): text between
    // tags, the attributes a person reads or hears, and strings inside JSX.
    files: ['src/web/**/*.tsx'],
    ignores: ['src/web/**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'should-validate-template': true,
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-description',
              'aria-valuetext',
              'placeholder',
              'title',
              'alt',
              'label',
              'description',
              'heading',
              'emptyLabel',
              'confirmLabel',
              'cancelLabel',
            ],
          },
          callees: {
            exclude: [
              't',
              'tr',
              'key',
              'cn',
              'clsx',
              'formatDate',
              'formatNumber',
              'navigate',
              'queryKey',
              'useSearchParams',
              'querySelector',
              'closest',
              'matchMedia',
              'setAttribute',
              'getItem',
              'setItem',
              'new URL',
              'URLSearchParams',
              'encodeURIComponent',
              'register',
              'fieldErrorProps',
              'watch',
              'setValue',
              'getValues',
            ],
          },
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s·×–—…→←↑↓•%°]+', '[A-Z_-]+'] },
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
);
