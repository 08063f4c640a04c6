import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../../apps/api/src/server.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { loadConfig } from '../../agentic-rag/src/index.js';
import { createRuntime } from '../../agentic-rag/src/runtime/index.js';

const CLIENT = fileURLToPath(new URL('..', import.meta.url));
const requireFromRepo = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);

const PACK = {
  metadata: {
    pack_id: 'platform-team',
    global: { team: 'Platform SRE' },
    entities: { 'user:alice': { name: 'Alice', role: 'on-call lead' } },
  },
  pieces: [
    {
      piece_id: 'a-1',
      content: 'Always page the carrier team before failing over the label service.',
      knowledge_type: 'instruction',
      info_type: 'instructions',
      entity_id: 'user:alice',
    },
    {
      piece_id: 'a-2',
      content: 'Alice maintains the webhook dispatcher and its failover runbook.',
      knowledge_type: 'fact',
      info_type: 'context',
      entity_id: 'user:alice',
    },
  ],
  graph: {
    nodes: [
      { id: 'user:alice', type: 'Person', name: 'Alice' },
      { id: 'dispatcher', type: 'Service', name: 'webhook dispatcher' },
    ],
    edges: [{ source: 'user:alice', target: 'dispatcher', type: 'MAINTAINS', piece_id: 'a-2' }],
  },
};

/** What a user's program does with the package: plain Node, no loader, only the package's exports. */
const CONSUMER = `
import { AgenticRagClient, AgenticRagError, KnowledgeProvider } from '@agentic-rag/client';
const { BASE_URL, API_KEY, WORKSPACE } = process.env;
const client = new AgenticRagClient({ baseUrl: BASE_URL, apiKey: API_KEY, workspaceId: WORKSPACE });
const failure = (promise) =>
  promise.then(
    () => null,
    (error) => ({ agenticRagError: error instanceof AgenticRagError, code: error.code, status: error.status }),
  );
const search = await client.search({ query: 'label service failover runbook', k: 5 });
// Streamed first: asked again, the answer comes from the answer cache, without stages.
const streamed = [];
for await (const event of client.ragAnswerStream({ query: 'How do I fail over the label service?' })) {
  streamed.push(event);
}
const answer = await client.ragAnswer({ query: 'How do I fail over the label service?' });
const provider = new KnowledgeProvider({ client, workspaceId: WORKSPACE, entityId: 'user:alice' });
const provided = await provider.provide('failover of the label service');
const stranger = new AgenticRagClient({
  baseUrl: BASE_URL,
  apiKey: 'ar_0123456789abcdef_notthesecretnotthesecretnotthesecret1234',
  workspaceId: WORKSPACE,
});
console.log(JSON.stringify({
  resolved: import.meta.resolve('@agentic-rag/client'),
  searched: search.hits.map((hit) => hit.sourceId),
  answer: { refused: answer.refused, cited: answer.citations.map((citation) => citation.sourceId) },
  streamed: {
    types: [...new Set(streamed.map((event) => event.type))].sort(),
    final: streamed.at(-1).answer.answer === answer.answer,
  },
  provided,
  errors: {
    unknownKey: await failure(stranger.search({ query: 'label service' })),
    unknownWorkspace: await failure(client.search({ query: 'label service', workspaceId: 'no-such-workspace' })),
    unreachable: await failure(new AgenticRagClient({ baseUrl: 'http://127.0.0.1:1' }).ragAnswer({ query: 'hi', workspaceId: 'w' })),
  },
}));
`;

/**
 * Runs a program and resolves with its stdout. Asynchronous on purpose: the API server answering
 * the program lives in this process, and a synchronous spawn would block its event loop.
 */
async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    return (await execFileAsync(command, args, { ...options, encoding: 'utf8' })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, {
      cause: error,
    });
  }
}

/** The ```ts blocks of the README, in order: one program, as a reader would paste them. */
function readmeExamples(): string {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

/**
 * The SDK as npm users get it: `pnpm pack` (whose prepack builds dist/ when it is missing or
 * stale), the tarball unpacked into a project's node_modules beside its one runtime dependency, and
 * imported by plain Node against a real API server.
 */
describe('the published @agentic-rag/client', () => {
  const ws = uniqueWorkspace('published');
  let project: string;
  let files: string[];
  let baseUrl: string;
  let apiKey: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'agentic-rag-client-'));
    await run('pnpm', ['pack', '--pack-destination', project], { cwd: CLIENT });
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`pnpm pack left no tarball in ${project}`);
    files = (await run('tar', ['-tzf', tarball], { cwd: project }))
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''))
      .sort();
    const installed = path.join(project, 'node_modules', '@agentic-rag', 'client');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { cwd: project });
    // The runtime dependency as npm would install it, and @types/node for the README's examples.
    symlinkSync(
      realpathSync(path.join(CLIENT, 'node_modules', 'eventsource-parser')),
      path.join(project, 'node_modules', 'eventsource-parser'),
    );
    mkdirSync(path.join(project, 'node_modules', '@types'));
    symlinkSync(
      path.dirname(requireFromRepo.resolve('@types/node/package.json')),
      path.join(project, 'node_modules', '@types', 'node'),
    );
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));

    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({ ...process.env, AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' });
    const runtime = await createRuntime({ config, sql });
    const summary = await runtime.pipeline.ingestInline(ws, [
      { id: 'packs/platform.json', content: JSON.stringify(PACK) },
      {
        id: 'docs/failover.md',
        content:
          '# Label service failover\n\nFail over the label service with the runbook in docs/runbook.md.\n',
      },
    ]);
    expect(summary.failures).toEqual([]);
    const access = await serviceWithAdmin(runtime);
    apiKey = access.key;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => {
    await close?.();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('holds the compiled JavaScript, its declarations and the README: no sources, tests or build state', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']),
    );
    const javascript = files.filter((file) => file.endsWith('.js'));
    expect(javascript.length).toBeGreaterThan(5);
    for (const file of javascript) expect(files).toContain(file.replace(/\.js$/, '.d.ts'));
    expect(files.filter((file) => !/^dist\/.+\.(js|d\.ts)$/.test(file))).toEqual([
      'README.md',
      'package.json',
    ]);
    expect(files.filter((file) => /test|fixture|tsbuildinfo/.test(file))).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(path.join(project, 'node_modules', '@agentic-rag', 'client', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    // The repo's source condition points at src/, which is not published.
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
      './package.json': './package.json',
    });
    expect(manifest).not.toHaveProperty('private');
  });

  it('works from plain Node: search, ragAnswer, the answer stream, KnowledgeProvider and error codes', async () => {
    const env = { PATH: process.env.PATH, BASE_URL: baseUrl, API_KEY: apiKey, WORKSPACE: ws };
    const output = await run(process.execPath, ['--input-type=module', '-e', CONSUMER], {
      cwd: project,
      env,
    });
    const result = JSON.parse(output) as Record<string, unknown>;
    expect(result.resolved).toBe(
      `file://${realpathSync(project)}/node_modules/@agentic-rag/client/dist/index.js`,
    );
    expect(result.searched).toContain('docs/failover.md');
    expect(result.answer).toMatchObject({
      refused: false,
      cited: expect.arrayContaining(['docs/failover.md']),
    });
    expect(result.streamed).toEqual({ types: ['citation', 'delta', 'final', 'stage'], final: true });
    expect(result.provided).toMatchObject({
      user_profile: expect.stringContaining('name: Alice\nrole: on-call lead'),
      instructions: '[instruction] Always page the carrier team before failing over the label service.',
    });
    expect(result.errors).toEqual({
      unknownKey: { agenticRagError: true, code: 'UNAUTHENTICATED', status: 401 },
      // A GraphQL error travels in a 200 response; its code is the same as REST's.
      unknownWorkspace: { agenticRagError: true, code: 'WORKSPACE_NOT_FOUND', status: 200 },
      unreachable: { agenticRagError: true, code: 'UNREACHABLE', status: null },
    });
  });

  it('type-checks the README’s examples against the published declarations', async () => {
    writeFileSync(path.join(project, 'readme.ts'), readmeExamples());
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
          // The package's own .d.ts files are checked too.
          skipLibCheck: false,
        },
        files: ['readme.ts'],
      }),
    );
    const tsc = requireFromRepo.resolve('typescript/bin/tsc');
    // Fails with tsc's report when an example does not compile.
    expect(await run(process.execPath, [tsc, '-p', project], { cwd: project })).toBe('');
  });
});
