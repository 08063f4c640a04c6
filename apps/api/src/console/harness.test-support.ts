import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJsonLogger, loadConfig } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { serviceWithAdmin } from '../../../../test/api.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { createApi } from '../server.js';

/** What the console's browser tests share: Debian's Chromium, the built console, the real API. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const ARTIFACTS = path.join(REPO, 'artifacts', 'console');

/** The Zephyr guide the console tests upload and ask about. */
export const GUIDE = [
  '# Zephyr widget care',
  '',
  'The Zephyr widget warranty lasts **forty-two months** from the day of delivery.',
  '',
  '## Cleaning',
  '',
  'Wipe the Zephyr widget with a dry cloth; water voids the warranty.',
  '',
].join('\n');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The console as `pnpm build` makes it, from the sources under test (Vite takes about a second). */
export function buildConsole(): void {
  const root = path.join(REPO, 'apps', 'console');
  const vite = createRequire(path.join(root, 'package.json')).resolve('vite/package.json');
  const result = spawnSync(
    process.execPath,
    [path.join(path.dirname(vite), 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
    { cwd: root, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`vite build failed: ${result.stderr}`);
}

/**
 * The real API (PGlite, or Postgres with TEST_DATABASE_URL), inline ingest, console and explorer
 * mounted as in production, with a workspace of the test's own (the API's default one too, for
 * pages that read the default, such as the explorer's example).
 */
export async function startApi(settings: Record<string, string> = {}) {
  const sql = await testBackends().at(-1)!.open();
  const workspaceId = uniqueWorkspace('console');
  const config = loadConfig({
    ...process.env,
    REDIS_URL: undefined,
    AGENTIC_RAG_INGEST_MODE: 'inline',
    AGENTIC_RAG_INGEST_ON_START: 'false',
    AGENTIC_RAG_WORKSPACE: workspaceId,
    LOG_LEVEL: 'silent',
    ...settings,
  });
  const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
  const runtime = await createRuntime({ config, sql, logger });
  const { service, key, authorization } = await serviceWithAdmin(runtime);
  const api = await createApi(service);
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  const close = async () => {
    api.server.closeAllConnections();
    await new Promise((resolve) => api.server.close(resolve));
    await api.stop();
    await dropWorkspace(sql, workspaceId).catch(() => undefined);
    await runtime.close();
    await sql.close();
  };
  const ingest = (documents: Array<{ id: string; content: string }>) =>
    runtime.pipeline.ingestInline(workspaceId, documents);
  return { origin, key, authorization, workspaceId, runtime, sql, ingest, close };
}
