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
  let logFile: string;
  /** What a person sees: stdout and stderr, apart. */
  const stdout: string[] = [];
  const stderr: string[] = [];
  const logs = () => readFile(logFile, 'utf8').catch(() => '');

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
    delete env.LOG_FORMAT;
    delete env.LOG_FILE;
    logFile = path.join(root, 'data', 'logs', 'agentic-rag.log');
    child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(REPO, 'apps/api/src/main.ts')], {
      cwd: root,
      env,
    });
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    let exited: number | null | undefined;
    child.on('exit', (code) => (exited = code));
    // The port is in the log file before the service is ready: /healthz is asked at once.
    for (let attempt = 0; ; attempt++) {
      const match = /"event":"api-listening","port":(\d+)/.exec(await logs());
      if (match) {
        baseUrl = `http://127.0.0.1:${match[1]}`;
        break;
      }
      if (exited !== undefined || attempt > 600)
        throw new Error(`API did not start (${exited}):\n${stderr.join('')}${await logs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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
    expect(await logs()).toContain(
      '"event":"smoke-search","query":"How do I create a location?","top":{"sourcePath":"corpus/locations.md"',
    );
  });

  it('prints one line when ready: the console URL, the admin key file and the real corpus counts', async () => {
    for (let attempt = 0; attempt < 100 && !stdout.join('').includes('\n'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stdout.join('')).toBe(
      `agentic-rag ready: ${baseUrl}/ · admin key in ${path.join(root, 'data', 'admin.key')} · ` +
        `workspace demo: 1 document, 1 chunk · log ${logFile}\n`,
    );
    expect(stderr.join('')).toBe('');
    // The configuration dump and every event are in the log file, as JSON lines.
    const lines = (await logs())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ event: 'api-starting', config: { PORT: 0, LOG_FORMAT: 'pretty' } });
    expect(lines.find((line) => line.event === 'api-ready')).toMatchObject({
      url: `${baseUrl}/`,
      corpus: { workspaceId: 'demo', documents: 1, chunks: 1 },
    });
  });

  it('mints an admin key on the first start: a 0600 file whose path is logged, never the key', async () => {
    const file = path.join(root, 'data', 'admin.key');
    const key = await adminKey();
    expect(key).toMatch(/^ar_/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(stdout.join('')).toContain(file);
    expect(stdout.join('') + (await logs())).not.toContain(key);
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
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, exited, output: () => output, stdout: () => stdout };
  };

  it('writes JSON lines on stdout, and no log file, with LOG_FORMAT=json', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-api-json-'));
    await mkdir(path.join(root, 'corpus'));
    await writeFile(path.join(root, 'corpus', 'depots.md'), '# Depots\n\nDepots open at six.\n');
    const api = start(root, {
      PORT: '0',
      LOG_FORMAT: 'json',
      AGENTIC_RAG_CORPUS_DIR: path.join(root, 'corpus'),
    });
    try {
      for (let attempt = 0; attempt < 600 && !api.stdout().includes('"event":"api-ready"'); attempt++) {
        if (api.child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lines = api
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ event: 'api-starting', config: { LOG_FORMAT: 'json' } });
      const ready = lines.find((line) => line.event === 'api-ready');
      expect(ready).toMatchObject({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
        adminKey: { file: path.join(root, 'data', 'admin.key') },
        corpus: { workspaceId: 'demo', documents: 1, chunks: 1 },
        logFile: null,
      });
      await expect(access(path.join(root, 'data', 'logs'))).rejects.toThrow();
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
    } finally {
      api.child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    }
  });

  it('stops cleanly on SIGTERM in the middle of the start-up ingest', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-api-stop-'));
    await mkdir(path.join(root, 'corpus'));
    for (let index = 0; index < 150; index++) {
      await writeFile(
        path.join(root, 'corpus', `doc-${index}.md`),
        `# Doc ${index}\n\n${'Parcels move between depots every night. '.repeat(60)}\n`,
      );
    }
    const api = start(root, {
      PORT: '0',
      LOG_FORMAT: 'json',
      AGENTIC_RAG_CORPUS_DIR: path.join(root, 'corpus'),
    });
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
