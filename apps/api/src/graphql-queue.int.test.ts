import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  idempotencyKey,
  ingestDocumentPayload,
  loadConfig,
  payloadSummary,
  sha256,
  startIngestWorker,
  type IngestWorker,
  type RagRuntime,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePdf } from '../../../packages/agentic-rag/src/ingest/loaders/pdf-writer.test-support.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

// Response shapes differ per query; the assertions are what check them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

/** ingestDocuments through the real queue: Redis, a worker, Postgres (CI sets REDIS_URL). */
describe.runIf(process.env.REDIS_URL)('GraphQL ingestion through the queue', () => {
  let runtime: RagRuntime;
  let worker: IngestWorker;
  let url: string;
  let authorization: string;
  let close: () => Promise<void>;
  const ws = uniqueWorkspace('gql-queue');

  const graphql = async (query: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as {
      data: Data | null;
      errors?: Array<{ extensions: { code: string } }>;
    };
  };
  const settled = async (id: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { data } = await graphql(`{ job(id: "${id}") { status attempts error corpusVersion } }`);
      if (data!.job.status === 'completed' || data!.job.status === 'dead') return data!.job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`job ${id} never settled`);
  };

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_QUEUE_NAME: `gql-${randomUUID().slice(0, 8)}`,
      AGENTIC_RAG_INGEST_MODE: 'queue',
      AGENTIC_RAG_JOB_ATTEMPTS: '2',
      AGENTIC_RAG_JOB_BACKOFF_MS: '50',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql, queue: true, recordStages: true });
    worker = await startIngestWorker(runtime);
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await worker.close();
      await runtime.queue!.queue.obliterate({ force: true });
      await runtime.queue!.deadLetters.obliterate({ force: true });
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => {
    await close();
  });

  it('queues a job per document, which a worker completes', async () => {
    const { data } = await graphql(
      `mutation { ingestDocuments(input: {workspaceId: "${ws}", documents: [{id: "notes/dock.md", content: "# Dock\\n\\nDock 7 is for refrigerated trailers."}]}) { mode summary { chunks } jobs { id status kind } } }`,
    );
    expect(data!.ingestDocuments).toMatchObject({ mode: 'queue', summary: null });
    expect(data!.ingestDocuments.jobs).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'queued', kind: 'ingest-document' },
    ]);
    const id = data!.ingestDocuments.jobs[0].id;
    const job = await settled(id);
    expect(job).toMatchObject({ status: 'completed', attempts: 1 });
    // The version the worker's write left, for a client to read its write with minCorpusVersion.
    const corpus = await graphql(`{ corpus(workspaceId: "${ws}") { version } }`);
    expect(job.corpusVersion).toBe(corpus.data!.corpus.version);
    expect(job.corpusVersion).toBeGreaterThan(0);
    // Each stage was filed under the job, and moved its progress to the end.
    const stages = await runtime.sql.query(
      'SELECT source_path, stage, job_id FROM rag_ingest_stages WHERE workspace_id = $1',
      [ws],
    );
    expect(stages.rows).toEqual([{ source_path: 'notes/dock.md', stage: 'stored', job_id: id }]);
    expect((await runtime.queue!.queue.getJob(id))?.progress).toBe(1);
    const search = await graphql(
      `{ search(input: {query: "refrigerated trailers dock", workspaceId: "${ws}", k: 1}) { hits { sourceId } } }`,
    );
    expect(search.data!.search.hits).toEqual([{ sourceId: 'notes/dock.md' }]);
  });

  it('queues a PDF sent as contentBase64: the worker decodes it and stores its text', async () => {
    const pdf = await writePdf([[{ text: 'Heron valves open at dawn.', y: 700 }]]);
    const { data } = await graphql(`mutation {
      ingestDocuments(input: { workspaceId: "${ws}", documents: [
        { id: "manuals/heron.pdf", contentBase64: "${Buffer.from(pdf).toString('base64')}" }
      ] }) { mode jobs { id } }
    }`);
    expect(data!.ingestDocuments.mode).toBe('queue');
    expect(await settled(data!.ingestDocuments.jobs[0].id)).toMatchObject({ status: 'completed' });
    const { data: read } = await graphql(
      `{ document(workspaceId: "${ws}", id: "manuals/heron.pdf") { kind chunks { text } } }`,
    );
    expect(read!.document.kind).toBe('pdf');
    expect(read!.document.chunks[0].text).toContain('Heron valves open at dawn.');
  });

  it('never lets a secret reach Redis: an inline document is redacted before it is queued', async () => {
    // Fake credentials in AWS's format, never issued.
    const secret = 'q7Vd2Lk9Xw4Tz8Rm1Bn6Yc3Hf5Js0Pa+Ge/Ku2Wo';
    const content = `# Relay\n\n\`\`\`ini\naws_access_key_id = AKIA4HQX7TZ2LMN5PRVW\naws_secret_access_key = ${secret}\n\`\`\`\n`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({
        query:
          'mutation($w: ID!, $c: String!) { ingestDocuments(input: {workspaceId: $w, documents: [{id: "notes/relay.md", content: $c}]}) { jobs { id } } }',
        variables: { w: ws, c: content },
      }),
    });
    const { data } = (await response.json()) as { data: Data };
    const id = data.ingestDocuments.jobs[0].id;
    const queued = await runtime.queue!.queue.getJob(id);
    expect(JSON.stringify(queued?.data)).not.toContain(secret);
    expect(JSON.stringify(queued?.data)).toContain('[REDACTED:');
    expect(await settled(id)).toMatchObject({ status: 'completed' });
    const chunks = await runtime.sql.query<{ text: string }>(
      "SELECT c.text FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id WHERE d.workspace_id = $1 AND d.source_path = 'notes/relay.md'",
      [ws],
    );
    expect(chunks.rows.length).toBeGreaterThan(0);
    expect(chunks.rows.map((row) => row.text).join('\n')).not.toContain(secret);
  });

  it('dead-letters a document that can never load, lists it and can purge it', async () => {
    const { data } = await graphql(
      `mutation { ingestDocuments(input: {workspaceId: "${ws}", documents: [{id: "notes/broken.yaml", content: "a: [unclosed"}]}) { jobs { id } } }`,
    );
    const id = data!.ingestDocuments.jobs[0].id;
    expect(await settled(id)).toMatchObject({
      status: 'dead',
      attempts: 1,
      error: expect.stringContaining('PARSE_FAILED'),
    });
    const letters = await graphql('{ deadLetters { id document workspaceId attempts error } }');
    expect(letters.data!.deadLetters).toEqual([
      {
        id,
        document: 'notes/broken.yaml',
        workspaceId: ws,
        attempts: 1,
        error: expect.stringContaining('PARSE_FAILED'),
      },
    ]);
    expect((await graphql('mutation { purgeDeadLetters }')).data).toEqual({ purgeDeadLetters: 1 });
    expect((await graphql('{ deadLetters { id } }')).data).toEqual({ deadLetters: [] });
  });

  it('resumes a document whose job was lost mid-ingest, and reports one that cannot be resumed', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'resume-'));
    await writeFile(path.join(folder, 'gate.md'), '# Gate\n\nGate 4 closes at 22:00 for customs checks.\n');
    const gate = `${path.basename(folder)}/gate.md`;
    try {
      // What a worker killed after embedding leaves behind when Redis then loses its jobs too:
      // rag_jobs and rag_ingest_stages rows, no BullMQ job.
      const payloads = [
        { type: 'file', root: folder, relativePath: 'gate.md' },
        { type: 'inline', id: 'notes/lost.md', content: '# Lost\n\nNever stored.\n' },
      ].map((source) =>
        ingestDocumentPayload.parse({
          kind: 'ingest-document',
          workspaceId: ws,
          source,
          contentHash: sha256(source.type),
        }),
      );
      const ids = payloads.map((payload) => idempotencyKey(payload));
      for (const [index, payload] of payloads.entries()) {
        await runtime.jobs.queued({
          id: ids[index]!,
          kind: payload.kind,
          workspaceId: ws,
          payload: payloadSummary(payload),
        });
        await runtime.sql.query(
          `INSERT INTO rag_ingest_stages (workspace_id, source_path, content_hash, stage, job_id)
           VALUES ($1, $2, 'x', 'embedded', $3)`,
          [ws, [gate, 'notes/lost.md'][index], ids[index]],
        );
      }
      const { data } = await graphql(
        `mutation { resumeIngest(workspaceId: "${ws}") { retried requeued unrecoverable { document reason } } }`,
      );
      // The file is read again: its job id is the one its bytes give.
      const requeued = data!.resumeIngest.requeued as string[];
      expect(data!.resumeIngest).toEqual({
        retried: [],
        requeued: [expect.stringMatching(/^[0-9a-f]{64}$/)],
        unrecoverable: [
          { document: 'notes/lost.md', reason: expect.stringContaining('send the document again') },
        ],
      });
      expect(await settled(requeued[0]!)).toMatchObject({ status: 'completed' });
      const search = await graphql(
        `{ search(input: {query: "gate customs checks", workspaceId: "${ws}", k: 1}) { hits { sourceId } } }`,
      );
      expect(search.data!.search.hits).toEqual([{ sourceId: gate }]);
      const stage = await runtime.sql.query(
        'SELECT stage FROM rag_ingest_stages WHERE workspace_id = $1 AND source_path = $2',
        [ws, gate],
      );
      expect(stage.rows).toEqual([{ stage: 'stored' }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('completes a pack whose one piece is refused, storing the rest', async () => {
    const pack = {
      pieces: [
        { piece_id: 'ok', content: 'Dock 9 opens at six.', knowledge_type: 'fact', info_type: 'context' },
        {
          piece_id: 'bad',
          content: 'The gate password: s3cr3t-gate',
          knowledge_type: 'note',
          info_type: 'context',
        },
      ],
    };
    const id = await runtime.queue!.enqueueInline(ws, 'packs/dock.json', JSON.stringify(pack));
    expect(await settled(id)).toMatchObject({ status: 'completed' });
    const record = await runtime.jobs.get(id);
    expect(record?.result).toMatchObject({
      documents: { added: 1, failed: 1 },
      failures: [expect.objectContaining({ sourcePath: 'packs/dock.json#bad' })],
    });
    expect(await runtime.queue!.listDeadLetters()).toEqual([]);
  });
});
