import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startService, until, type ServiceProcess } from '../../../test/fault-harness.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Issue 15: on the embedded database, one ingestDocuments of 1,000 documents used to stop every
 * other request until it finished, and aborting it did not stop it. Now the database works on its
 * own thread and the ingest checks the request's signal between documents.
 */
describe('an inline ingest on the embedded database (a real API process)', () => {
  let root: string;
  let api: ServiceProcess;
  let port = 0;
  let key = '';

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-ingest-cancel-'));
    api = startService(
      'api',
      {
        DATA_DIR: root,
        PORT: '0',
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_SECOND: '0',
        AGENTIC_RAG_INGEST_ON_START: 'false',
      },
      REPO,
    );
    await until(
      () => api.events('api-ready').length > 0,
      60_000,
      () => api.output(),
    );
    port = Number(api.events('api-listening')[0]!.port);
    key = (await readFile(path.join(root, 'admin.key'), 'utf8')).trim();
  }, 90_000);

  afterAll(async () => {
    if (api) {
      api.signal('SIGTERM');
      await api.exited;
    }
    await rm(root, { recursive: true, force: true });
  });

  const graphql = async (query: string, variables: unknown, signal?: AbortSignal) => {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
      ...(signal ? { signal } : {}),
    });
    return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  };
  const storedDocuments = async () => {
    const body = await graphql('query { corpus(workspaceId: "cancel") { documents } }', {});
    return (body.data?.corpus as { documents: number } | undefined)?.documents ?? 0;
  };

  it('answers /healthz throughout, and stops at a document boundary once the request is cancelled', async () => {
    const documents = Array.from({ length: 1000 }, (_, index) => ({
      id: `cancel/note-${index}.md`,
      content: `# Note ${index}\n\nPallet ${index} leaves depot ${index % 17} on route ${index % 5}.\n`,
    }));
    const abort = new AbortController();
    const ingest = graphql(
      'mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode } }',
      { input: { workspaceId: 'cancel', documents } },
      abort.signal,
    ).catch((error: Error) => error.name);

    // While it runs, every health check is answered, each well within a second.
    const slowest = { ms: 0 };
    for (let check = 0; check < 40; check++) {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      expect(response.status).toBe(200);
      slowest.ms = Math.max(slowest.ms, performance.now() - started);
      await sleep(25);
    }
    expect(slowest.ms).toBeLessThan(1000);
    await until(
      async () => (await storedDocuments()) > 0,
      30_000,
      () => 'the ingest to store something',
    );

    abort.abort();
    expect(await ingest).toBe('AbortError');
    // The document being written when the request went finishes; then the count stays put.
    await sleep(1500);
    const settled = await storedDocuments();
    await sleep(1500);
    expect(await storedDocuments()).toBe(settled);
    expect(settled).toBeGreaterThan(0);
    expect(settled).toBeLessThan(1000);
  }, 120_000);
});
