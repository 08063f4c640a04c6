import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, ErrorCode } from '../packages/agentic-rag/src/index.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const variables = Object.keys(configSchema.shape);

// The README and .env.example are the user's manual for configuration: they must not drift
// from the schema that actually reads the environment.
describe('configuration documentation', () => {
  it.each(variables)('%s is in .env.example and the README', (variable) => {
    expect(read('.env.example')).toMatch(new RegExp(`^${variable}=`, 'm'));
    expect(read('README.md')).toContain(`\`${variable}\``);
  });

  it('documents no variable the service does not read', () => {
    const documented = [...read('.env.example').matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(documented.filter((name) => !variables.includes(name!))).toEqual([]);
  });

  it('puts both quick-start commands on the README first screen', () => {
    const firstScreen = read('README.md').split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('pnpm start');
    expect(firstScreen).toContain('pnpm test');
  });

  it('shows the GraphQL schema exactly as the server loads it', () => {
    const schema = read('apps/api/src/graphql/schema.graphql').trim();
    expect(read('README.md')).toContain(`\`\`\`graphql\n${schema}\n\`\`\``);
  });

  it('lists every error code a client can receive', () => {
    const readme = read('README.md');
    expect(Object.values(ErrorCode).filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });
});
