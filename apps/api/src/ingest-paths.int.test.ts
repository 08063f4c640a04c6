import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, startIngestWorker, type IngestWorker, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceWithAdmin } from '../../../test/api.js';
import { dropWorkspace, testBackends } from '../../../test/backends.js';
import { createApi } from './server.js';

// Response shapes differ per query; the assertions are what check them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const FILES = 6;
const doc = (index: number, words = 'a note on cargo routing') =>
  `# Note ${index}\n\nNote ${index} is ${words}: depots, docks and lanes.\n`;

/**
 * A file of AGENTIC_RAG_CORPUS_DIR has one identity however it is ingested — the start-up ingest of
 * the whole folder, `ingestDocuments(paths:)` with its folder or with the file itself, a refresh —
 * in both modes; and the queue takes a file path as it takes a folder.
 */
describe.each(['inline', 'queue'] as const)('ingesting paths of the corpus directory (%s mode)', (mode) => {
  const run = mode === 'inline' || !!process.env.REDIS_URL;
  let runtime: RagRuntime;
  let worker: IngestWorker | null = null;
  let url: string;
  let authorization: string;
  let corpus: string;
  let close: () => Promise<void>;
  const ws = `paths-${mode}-${randomUUID().slice(0, 8)}`;

  const graphql = async (query: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data: Data | null; errors?: Array<{ extensions: { code: string } }> };
  };
  /** The mutation's result once its jobs have all ended (inline jobs already have). */
  const settle = async (reply: { data: Data | null; errors?: unknown }, field: string) => {
    expect(reply.errors).toBeUndefined();
    const result = reply.data![field];
    for (const job of result.jobs as Array<{ id: string }>) {
      for (let attempt = 0; ; attempt++) {
        const { data } = await graphql(`{ job(id: "${job.id}") { status error } }`);
        if (data!.job.status === 'completed') break;
        if (data!.job.status === 'dead' || attempt > 200)
          throw new Error(`job ${job.id}: ${data!.job.error}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return result as { mode: string; jobs: unknown[]; summary: Data | null };
  };
  const ingest = async (paths: string[], prune = false) =>
    settle(
      await graphql(
        `mutation { ingestDocuments(input: {workspaceId: "${ws}", paths: ${JSON.stringify(paths)}, prune: ${prune}}) {
           mode jobs { id } summary { documents { added updated unchanged removed } failures { sourceId code message } } } }`,
      ),
      'ingestDocuments',
    );
  const stored = async () => (await runtime.store.listDocuments(ws)).map((document) => document.sourcePath);

  beforeAll(async () => {
    if (!run) return;
    corpus = path.join(await mkdtemp(path.join(tmpdir(), 'paths-')), 'corpus');
    await mkdir(path.join(corpus, 'q'), { recursive: true });
    await mkdir(path.join(corpus, 'other'), { recursive: true });
    for (let index = 0; index < FILES; index++)
      await writeFile(path.join(corpus, 'q', `doc${index}.md`), doc(index));
    await writeFile(path.join(corpus, 'other', 'keep.md'), doc(99, 'outside the folder a prune names'));
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_CORPUS_DIR: corpus,
      AGENTIC_RAG_QUEUE_NAME: `paths-${randomUUID().slice(0, 8)}`,
      AGENTIC_RAG_INGEST_MODE: mode,
      AGENTIC_RAG_JOB_BACKOFF_MS: '50',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql, queue: mode === 'queue' });
    if (mode === 'queue') worker = await startIngestWorker(runtime);
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await worker?.close();
      if (runtime.queue) {
        await runtime.queue.queue.obliterate({ force: true });
        await runtime.queue.deadLetters.obliterate({ force: true });
      }
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await rm(path.dirname(corpus), { recursive: true, force: true });
    };
  });

  afterAll(async () => {
    if (run) await close();
  });

  it.runIf(run)('ingests a file named by its path, with the name the whole folder gives it', async () => {
    const result = await ingest(['q/doc0.md']);
    expect(result.mode).toBe(mode);
    if (mode === 'queue') expect(result.jobs).toHaveLength(1);
    expect(await stored()).toEqual(['corpus/q/doc0.md']);
  });

  it.runIf(run)(
    'adds only the other files when the folder follows, and nothing when the whole corpus does',
    async () => {
      await ingest(['q']);
      const folder = await stored();
      expect(folder).toEqual([...Array(FILES).keys()].map((index) => `corpus/q/doc${index}.md`));
      // What the API's start-up ingest does: the corpus directory itself.
      await ingest(['.']);
      expect(await stored()).toEqual([...folder, 'corpus/other/keep.md'].sort());
    },
  );

  it.runIf(run)('brings back deleted documents and re-reads changed files named by their paths', async () => {
    const deleted = ['corpus/q/doc1.md', 'corpus/q/doc2.md'];
    for (const id of deleted) {
      const reply = await graphql(
        `mutation { deleteDocument(workspaceId: "${ws}", id: "${id}") { deleted } }`,
      );
      expect(reply.data!.deleteDocument.deleted).toBe(true);
    }
    await writeFile(path.join(corpus, 'q', 'doc3.md'), doc(3, 'now about overnight trunking'));
    const result = await ingest(['q/doc1.md', 'q/doc2.md', 'q/doc3.md']);
    if (mode === 'queue') expect(result.jobs).toHaveLength(3);
    else expect(result.summary!.documents).toMatchObject({ added: 2, updated: 1 });
    expect(await stored()).toEqual(expect.arrayContaining(deleted));
    expect(await runtime.store.documentContent(ws, 'corpus/q/doc3.md')).toContain('overnight trunking');
    expect(await stored()).toHaveLength(FILES + 1);
  });

  it.runIf(run)('refreshes one document by reading its file only', async () => {
    const before = await stored();
    await writeFile(path.join(corpus, 'q', 'doc4.md'), doc(4, 'refreshed by hand'));
    await writeFile(path.join(corpus, 'q', 'doc5.md'), doc(5, 'changed but not asked for'));
    const reply = await graphql(
      `mutation { refreshDocument(workspaceId: "${ws}", id: "corpus/q/doc4.md") {
         mode summary { documents { added updated unchanged removed } } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.refreshDocument.summary.documents).toEqual({
      added: 0,
      updated: 1,
      unchanged: 0,
      removed: 0,
    });
    expect(await stored()).toEqual(before);
    expect(await runtime.store.documentContent(ws, 'corpus/q/doc4.md')).toContain('refreshed by hand');
    expect(await runtime.store.documentContent(ws, 'corpus/q/doc5.md')).not.toContain('changed but not');
  });

  it.runIf(run)('prunes what a folder no longer holds, and only below that folder', async () => {
    await unlink(path.join(corpus, 'q', 'doc0.md'));
    await ingest(['q'], true);
    const after = await stored();
    expect(after).not.toContain('corpus/q/doc0.md');
    expect(after).toContain('corpus/other/keep.md');
    expect(after).toHaveLength(FILES);
  });

  it.runIf(run)('refuses a path that is not there, and queues nothing for it', async () => {
    const reply = await graphql(
      `mutation { ingestDocuments(input: {workspaceId: "${ws}", paths: ["q/missing.md"]}) { mode } }`,
    );
    expect(reply.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });
});
