// `pnpm docs:gen`: writes the documentation pages that are generated from code, so they cannot
// drift from it (test/docs.test.ts compares them). Prettier then formats them like every page.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { configurationPage } from '../packages/agentic-rag/src/config/reference.js';
import { errorsPage } from '../packages/agentic-rag/src/errors/reference.js';

const pages: Record<string, string> = {
  'docs/configuration.md': configurationPage(),
  'docs/errors.md': errorsPage(),
};
for (const [file, text] of Object.entries(pages)) writeFileSync(new URL(`../${file}`, import.meta.url), text);
execFileSync('npx', ['prettier', '--write', ...Object.keys(pages)], { stdio: 'ignore' });
process.stdout.write(`docs:gen wrote ${Object.keys(pages).join(', ')}\n`);
