import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'eval/results/**', 'simulated_ingestion/**'] },
  { ignores: ['apps/api/src/graphql/generated/**'] }, // `pnpm codegen` output; its helper types use any
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-console': 'error',
    },
  },
  {
    // CLIs and app entry points talk to a terminal on purpose.
    files: [
      'packages/agentic-rag/src/cli/**/*.ts',
      'packages/bench/src/cli/**/*.ts',
      'apps/**/*.ts',
      '**/*.test.ts',
      'test/**/*.ts',
      'vitest.*.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
