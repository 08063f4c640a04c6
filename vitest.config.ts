import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// graphql ships CommonJS and ESM builds; Node gives Apollo Server the CommonJS one, Vite would give
// our sources the ESM one, and two instances of graphql refuse each other's schema objects.
const graphqlEntry = createRequire(new URL('./apps/api/package.json', import.meta.url)).resolve('graphql');

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // PGlite boots a WASM Postgres per test file (~3 s) and CI shares two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
