import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

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
    child = spawn(path.join(REPO, 'node_modules/.bin/tsx'), [path.join(REPO, 'apps/api/src/main.ts')], {
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
    expect(await ready!.json()).toMatchObject({
      status: 'ready',
      backend: 'pglite',
      corpus: { workspaceId: 'demo', documents: 1, chunks: 1 },
    });
    expect(logs.join('')).toContain(
      '"event":"smoke-search","query":"How do I create a location?","top":{"sourcePath":"locations.md"',
    );
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
