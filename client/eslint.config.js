// ESLint (flat config): JavaScript and typescript-eslint recommendations, the rules of hooks, and
// the project's own rule that features do not import each other (eslint/noCrossFeatureImports.js).
// Run: npm run lint (src, the rule and the configs; the e2e tours are Node scripts run by hand).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { noCrossFeatureImports } from './eslint/noCrossFeatureImports.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/api/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, project: { rules: { 'no-cross-feature-imports': noCrossFeatureImports } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The composition graph of the features; every other import between features is an error.
      'project/no-cross-feature-imports': [
        'error',
        {
          compose: {
            'device-page': ['clinical', 'view-options', 'turns'],
            clinical: ['analysis', 'capture', 'patients'],
            'alarm-banner': ['turns'],
            devices: ['turns'],
            ward: ['devices', 'turns'],
          },
        },
      ],
    },
  },
  {
    files: ['eslint/**/*.js', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
