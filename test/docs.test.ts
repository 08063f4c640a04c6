import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { configurationPage, undocumentedVariables } from '../packages/agentic-rag/src/config/reference.js';
import { configSchema, ErrorCode } from '../packages/agentic-rag/src/index.js';
import { errorsPage } from '../packages/agentic-rag/src/errors/reference.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');
const variables = Object.keys(configSchema.shape);

/** What `pnpm docs:gen` writes: the page as generated, formatted by the repository's Prettier. */
async function generated(file: string, text: string): Promise<string> {
  const options = await prettier.resolveConfig(path.join(REPO, file));
  return prettier.format(text, { ...options, filepath: path.join(REPO, file) });
}

// The configuration and error tables are generated from the code that reads the environment and
// maps the codes: a variable or a code added without its documentation fails here.
describe('generated reference pages', () => {
  it('docs/configuration.md is what docs:gen makes from the config schema today', async () => {
    expect(read('docs/configuration.md')).toBe(await generated('docs/configuration.md', configurationPage()));
  });

  it('explains every variable the schema reads', () => {
    expect(undocumentedVariables()).toEqual([]);
  });

  it('docs/errors.md is what docs:gen makes from the error-code table today', async () => {
    expect(read('docs/errors.md')).toBe(await generated('docs/errors.md', errorsPage()));
  });

  it('lists every error code a client can receive', () => {
    const page = read('docs/errors.md');
    expect(Object.values(ErrorCode).filter((code) => !page.includes(`| \`${code}\``))).toEqual([]);
  });
});

describe('configuration examples', () => {
  it.each(variables)('%s is in .env.example', (variable) => {
    expect(read('.env.example')).toMatch(new RegExp(`^${variable}=`, 'm'));
  });

  it('documents no variable the service does not read', () => {
    const documented = [...read('.env.example').matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(documented.filter((name) => !variables.includes(name!))).toEqual([]);
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('is the first screen: at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('puts both quick-start commands in its first 40 lines', () => {
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('pnpm start');
    expect(firstScreen).toContain('pnpm test');
  });
});

describe('docs/', () => {
  const pages = ['README.md', ...readdirSync(path.join(REPO, 'docs')).map((name) => `docs/${name}`)].filter(
    (file) => file.endsWith('.md'),
  );

  it('shows the GraphQL schema exactly as the server loads it', () => {
    const schema = read('apps/api/src/graphql/schema.graphql').trim();
    expect(read('docs/graphql.md')).toContain(`\`\`\`graphql\n${schema}\n\`\`\``);
  });

  it.each(pages)('%s links only to files that exist', (page) => {
    const links = [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    const local = links.filter((link) => !/^[a-z]+:/i.test(link));
    const broken = local.filter((link) => !existsSync(path.resolve(REPO, path.dirname(page), link)));
    expect(broken).toEqual([]);
  });
});
