// ESLint demands a config file at the top level; the rules live here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'coverage/**', '.local/**', 'functions/console/web/dist/**', 'functions/console/web/src/api/schema.d.ts'] },
  js.configs.recommended,
  { files: ['**/*.js'], languageOptions: { globals: { process: 'readonly', globalThis: 'readonly', console: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
);
