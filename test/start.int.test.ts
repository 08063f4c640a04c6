import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');
const READY = /agentic-rag ready: (http:\/\/\S+?)\/? /;

/**
 * `pnpm start`, the README's first command, stopped the way a supervisor or a script stops it: one
 * signal to the pnpm process alone (a terminal's Ctrl-C reaches the whole group instead). pnpm
 * passes the signal to its script's process, which must be the service itself: behind a `sh -c`,
 * SIGINT stopped nothing and SIGTERM left the API serving on its port with no parent.
 */
describe('pnpm start', () => {
  const groups = new Set<number>();
  let dataDir: string;

  beforeAll(() => {
    // What `pnpm start` would otherwise build first, outside the timed part.
    const built = spawnSync(
      'node',
      ['--input-type=module', '-e', "import { ensureBuilt } from './scripts/build.mjs'; ensureBuilt();"],
      { cwd: REPO, encoding: 'utf8', timeout: 300_000 },
    );
    if (built.status !== 0) throw new Error(`the build failed:\n${built.stderr}`);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'rag-start-'));
  }, 300_000);

  afterAll(() => {
    // Whatever a failed case left behind: the whole group, orphans included.
    for (const group of groups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops the service when pnpm alone gets %s',
    async (signal) => {
      const child = spawn('pnpm', ['start'], {
        cwd: REPO,
        detached: true,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          HOST: '127.0.0.1',
          PORT: '0',
          DATA_DIR: path.join(dataDir, signal),
          AGENTIC_RAG_INGEST_ON_START: 'false',
        },
      });
      groups.add(child.pid!);
      const url = await readyUrl(child);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      process.kill(child.pid!, signal);
      // pnpm ends, the port closes and no process of the group is left, within a shutdown's time.
      const deadline = Date.now() + 20_000;
      const exited = await Promise.race([
        once(child, 'exit').then(() => true),
        sleep(20_000).then(() => false),
      ]);
      expect(exited).toBe(true);
      while (Date.now() < deadline && (await serving(url))) await sleep(200);
      expect(await serving(url)).toBe(false);
      while (Date.now() < deadline && groupAlive(child.pid!)) await sleep(200);
      expect(groupAlive(child.pid!)).toBe(false);
    },
    120_000,
  );
});

function readyUrl(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 90 s:\n${output}`)), 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pnpm start exited (${code}) before it was ready:\n${output}`));
    });
  });
}

async function serving(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
