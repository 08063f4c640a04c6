import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');

/** Starts the real API process on embedded defaults, as the README's first command does. */
describe('API process on embedded defaults', () => {
  let root: string;
  let child: ChildProcess;
  let baseUrl: string;
  const logs: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-api-'));
    await mkdir(path.join(root, 'corpus'));
    await writeFile(
      path.join(root, 'corpus', 'locations.md'),
      '# Locations\n\n## Create a location\n\nPOST /locations creates a location.\n',
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, 'data'),
      AGENTIC_RAG_CORPUS_DIR: path.join(root, 'corpus'),
    };
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(REPO, 'apps/api/src/main.ts')], {
      cwd: root,
      env,
    });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`API did not start:\n${logs.join('')}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        logs.push(chunk.toString());
        const match = /"event":"api-listening","port":(\d+)/.exec(logs.join(''));
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      child.on('exit', (code) => reject(new Error(`API exited with ${code}:\n${logs.join('')}`)));
    });
    baseUrl = `http://127.0.0.1:${port}`;
  });

  /** The admin key the first start wrote (it may still be writing it while the corpus loads). */
  const adminKey = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await readFile(path.join(root, 'data', 'admin.key'), 'utf8')).trim();
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  it('answers /healthz at once and /readyz with the ingested corpus once ready', async () => {
    expect(await (await fetch(`${baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    let ready: Response | undefined;
    for (let attempt = 0; attempt < 100; attempt++) {
      ready = await fetch(`${baseUrl}/readyz`);
      if (ready.status === 200) break;
      expect(ready.status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Without a key, readiness says nothing about what the service holds.
    expect(await ready!.json()).toEqual({ status: 'ready' });
    const detailed = await fetch(`${baseUrl}/readyz`, {
      headers: { authorization: `Bearer ${await adminKey()}` },
    });
    expect(await detailed.json()).toMatchObject({
      status: 'ready',
      backend: 'pglite',
      corpus: { workspaceId: 'demo', documents: 1, chunks: 1 },
    });
    expect(logs.join('')).toContain(
      '"event":"smoke-search","query":"How do I create a location?","top":{"sourcePath":"corpus/locations.md"',
    );
  });

  it('mints an admin key on the first start: a 0600 file whose path is logged, never the key', async () => {
    const file = path.join(root, 'data', 'admin.key');
    const key = await adminKey();
    expect(key).toMatch(/^ar_/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(logs.join('')).toContain(file);
    expect(logs.join('')).not.toContain(key);
    const search = (authorization?: string) =>
      fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ query: '{ corpus(workspaceId: "demo") { documents } }' }),
      });
    const refused = await search();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(await (await search(`Bearer ${key}`)).json()).toEqual({ data: { corpus: { documents: 1 } } });
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(401);
  });

  it('answers unknown routes with the REST error shape', async () => {
    const response = await fetch(`${baseUrl}/nope`);
    expect(response.status).toBe(404);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      detail: 'no route for GET /nope',
      status_code: 404,
      error_code: 'NOT_FOUND',
    });
    expect(Number.isNaN(Date.parse(body.timestamp as string))).toBe(false);
  });

  it('shuts down cleanly on SIGTERM and releases the embedded database', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(
      import('node:fs/promises').then((fs) => fs.access(path.join(root, 'data', 'pglite.lock'))),
    ).rejects.toThrow();
  });
});

describe('API process lifecycle', () => {
  const start = (root: string, env: NodeJS.ProcessEnv) => {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, 'data'),
      ...env,
    };
    delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(REPO, 'apps/api/src/main.ts')], {
      cwd: root,
      env: childEnv,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, exited, output: () => output };
  };

  it('stops cleanly on SIGTERM in the middle of the start-up ingest', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-api-stop-'));
    await mkdir(path.join(root, 'corpus'));
    for (let index = 0; index < 150; index++) {
      await writeFile(
        path.join(root, 'corpus', `doc-${index}.md`),
        `# Doc ${index}\n\n${'Parcels move between depots every night. '.repeat(60)}\n`,
      );
    }
    const api = start(root, { PORT: '0', AGENTIC_RAG_CORPUS_DIR: path.join(root, 'corpus') });
    try {
      for (let attempt = 0; attempt < 600 && !api.output().includes('"event":"ingest-start"'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(api.output()).toContain('"event":"ingest-start"');
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      expect(api.output()).not.toContain('"event":"api-ready"');
      await expect(access(path.join(root, 'data', 'pglite.lock'))).rejects.toThrow();
    } finally {
      api.child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  });

  it('exits 1 with one line when the port is taken, and 2 on bad configuration', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-api-port-'));
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const api = start(root, { PORT: String(taken), AGENTIC_RAG_INGEST_ON_START: 'false' });
      expect(await api.exited).toBe(1);
      expect(api.output()).toContain(`api failed to start: port ${taken} is already in use (set PORT)`);
      expect(api.output()).not.toContain('    at ');

      const bad = start(root, { PORT: 'eighty' });
      expect(await bad.exited).toBe(2);
      expect(bad.output()).toBe('PORT="eighty" is invalid: expected an integer from 0 to 65535\n');

      // Auth off is for a developer's own machine: refused, in one line, on an interface others reach.
      const open = start(root, { HOST: '0.0.0.0', AGENTIC_RAG_AUTH: 'off' });
      expect(await open.exited).toBe(2);
      expect(open.output()).toBe(
        'AGENTIC_RAG_AUTH=off is for local development only and HOST=0.0.0.0 is not loopback: turn auth on, or set HOST=127.0.0.1\n',
      );
    } finally {
      blocker.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
