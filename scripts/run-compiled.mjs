// `pnpm start` / `pnpm worker` / `pnpm mcp`: runs an app's compiled main (apps/<name>/dist/main.js),
// building first when the build is missing or older than the sources. Started with
// `--conditions=agentic-rag-dist` so `@agentic-rag/core` resolves to its dist/ too (its `exports`
// map gives everyone else, tsx and vitest, the .ts sources).
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.mjs';

const app = process.argv[2];
if (!app || !process.execArgv.some((flag) => flag.includes('agentic-rag-dist'))) {
  process.stderr.write(
    'usage: node --conditions=agentic-rag-dist scripts/run-compiled.mjs <api|worker|mcp> [args]\n',
  );
  process.exit(2);
}
try {
  ensureBuilt();
} catch (error) {
  process.stderr.write(`${error.message}: fix the errors above, or run from source with pnpm dev\n`);
  process.exit(1);
}
const main = path.resolve(import.meta.dirname, '..', 'apps', app, 'dist', 'main.js');
// The app reads its own flags from process.argv.slice(2), as when started directly.
process.argv.splice(1, 2, main);
await import(pathToFileURL(main).href);
