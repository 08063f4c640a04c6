import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// graphql ships CommonJS and ESM builds; Node gives Apollo Server the CommonJS one, Vite would give
// our sources the ESM one, and two instances of graphql refuse each other's schema objects.
const graphqlEntry = createRequire(new URL('./apps/api/package.json', import.meta.url)).resolve('graphql');

// The SDK's package exports its built dist/ by default (what npm users get); tests in the repo take its
// TypeScript source through this condition, as tsconfig.base.json's customConditions does for tsc.
const sourceConditions = ['agentic-rag-source'];

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  ssr: { resolve: { conditions: sourceConditions } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // PGlite boots a WASM Postgres per test file (~3 s) and CI shares two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
