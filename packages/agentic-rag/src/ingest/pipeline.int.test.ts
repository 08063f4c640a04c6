import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder, type Embedder } from '../embed/index.js';
import { createRetriever } from '../retrieve/index.js';
import { loadConfig } from '../config/index.js';
import { checkCorpusIntegrity, CorpusStore, integrityViolations } from '../store/index.js';
import { IngestPipeline } from './pipeline.js';

const GUIDE = `# Locations guide

## Create a location

Send POST /locations with an address. The response carries the new location id.

\`\`\`bash
curl -X POST https://api.example.test/locations -d '{"name": "Depot"}'
\`\`\`

## Delete a location

DELETE /locations/{id} removes a location that has no open shipments.
`;

const NOTES = `Shipment notes

Carriers pick up parcels twice a day. Late pickups are escalated to the carrier desk.
`;

const CANCEL_RECORD = JSON.stringify({
  id: 'q1',
  title: 'Cancel a shipment',
  text: 'Use POST /shipments/{id}/cancel before pickup.',
});

async function writeCorpus(root: string): Promise<void> {
  await mkdir(path.join(root, 'guides'), { recursive: true });
  await writeFile(path.join(root, 'guides', 'locations.md'), GUIDE);
  await writeFile(path.join(root, 'notes.txt'), NOTES);
  await writeFile(
    path.join(root, 'faq.jsonl'),
    [
      CANCEL_RECORD,
      JSON.stringify({ id: 'q2', title: 'Weight limits', text: 'Parcels over 30 kg need freight service.' }),
    ].join('\n'),
  );
  await writeFile(
    path.join(root, 'page.html'),
    '<html><head><title>Status</title><script>var x = "never indexed";</script></head><body><h1>Status</h1><p>All systems normal.</p></body></html>',
  );
}

describe.each(testBackends())('ingestion on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  let pipeline: IngestPipeline;
  let root: string;
  let label: string;
  let workspace: string;
  const embedder = new DeterministicEmbedder();

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
    pipeline = new IngestPipeline({ store, embedder, maxTokens: 120, overlapTokens: 20 });
  });
  afterAll(async () => {
    await sql.close();
  });
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-corpus-'));
    label = path.basename(root);
    workspace = uniqueWorkspace('ingest');
    await writeCorpus(root);
  });
  afterEach(async () => {
    await dropWorkspace(sql, workspace);
    await rm(root, { recursive: true, force: true });
  });

  const chunkRows = (sourcePath: string) =>
    sql.query<{ chunk_id: string; chunk_index: number; text: string }>(
      `SELECT c.chunk_id, c.chunk_index, c.text FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE d.workspace_id = $1 AND d.source_path = $2 ORDER BY c.chunk_index`,
      [workspace, `${label}/${sourcePath}`],
    );

  it('ingests every supported file, one document per JSONL record, and skips them all when unchanged', async () => {
    const first = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(first.failures).toEqual([]);
    expect(first.documents).toEqual({
      added: 5,
      updated: 0,
      unchanged: 0,
      removed: 0,
      skipped: 0,
      failed: 0,
    });
    const docs = await store.listDocuments(workspace);
    expect(docs.map((doc) => doc.sourcePath)).toEqual([
      `${label}/faq.jsonl#q1`,
      `${label}/faq.jsonl#q2`,
      `${label}/guides/locations.md`,
      `${label}/notes.txt`,
      `${label}/page.html`,
    ]);
    const before = await store.stats(workspace);

    const second = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(second.documents).toEqual({
      added: 0,
      updated: 0,
      unchanged: 5,
      removed: 0,
      skipped: 0,
      failed: 0,
    });
    expect(second.chunks).toBe(0);
    const after = await store.stats(workspace);
    expect(after).toEqual(before);
  });

  it('keeps script text out of the index and finds content by search', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const leaked = await sql.query(
      "SELECT 1 FROM rag_chunks WHERE workspace_id = $1 AND text LIKE '%never indexed%'",
      [workspace],
    );
    expect(leaked.rowCount).toBe(0);
    const { hits } = await createRetriever(loadConfig({}), sql, embedder).retrieve({
      workspaceId: workspace,
      query: 'how do I create a location',
      k: 3,
    });
    expect(hits[0]).toMatchObject({
      sourcePath: `${label}/guides/locations.md`,
      sectionPath: 'Locations guide > Create a location',
    });
    expect(hits[0]!.channels.vector).toBeDefined();
    expect(hits[0]!.channels.lexical).toBeDefined();
  });

  it('stores offsets that slice the stored document text back to each chunk exactly', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const mismatched = await sql.query<{ chunk_id: string }>(
      `SELECT c.chunk_id FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE c.workspace_id = $1
         AND substr(d.content, c.start_offset + 1, c.end_offset - c.start_offset) <> c.text`,
      [workspace],
    );
    expect(mismatched.rows).toEqual([]);
    expect((await store.stats(workspace)).chunks).toBeGreaterThanOrEqual(5);
  });

  it('replaces a changed document: new chunks, no orphans, corpus version bumped once', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const oldChunks = await chunkRows('guides/locations.md');
    const versionBefore = (await store.stats(workspace)).corpusVersion;

    await writeFile(
      path.join(root, 'guides', 'locations.md'),
      `# Locations guide\n\nLocations are now called sites. Use POST /sites.\n`,
    );
    const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(summary.documents).toMatchObject({ added: 0, updated: 1, unchanged: 4 });
    expect(summary.corpusVersion).toBe(versionBefore + 1);

    const newChunks = await chunkRows('guides/locations.md');
    expect(newChunks.rows.map((row) => row.text)).toEqual([
      `# Locations guide\n\nLocations are now called sites. Use POST /sites.`,
    ]);
    const oldIds = oldChunks.rows.map((row) => row.chunk_id);
    const survivors = await sql.query(
      'SELECT 1 FROM rag_chunks WHERE workspace_id = $1 AND chunk_id = ANY($2::text[])',
      [workspace, oldIds],
    );
    expect(survivors.rowCount).toBe(0);
    const orphans = await sql.query(
      'SELECT 1 FROM rag_chunks c LEFT JOIN rag_documents d ON d.id = c.document_id WHERE c.workspace_id = $1 AND d.id IS NULL',
      [workspace],
    );
    expect(orphans.rowCount).toBe(0);
  });

  it('keeps chunk ids stable across re-ingests of unchanged text', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const before = await chunkRows('notes.txt');
    // A new pipeline with another chunk size forces a rewrite of everything; same settings again
    // restores the original chunks, and with them the original ids.
    const other = new IngestPipeline({ store, embedder, maxTokens: 60, overlapTokens: 10 });
    await other.ingestSources({ workspaceId: workspace, sources: [root] });
    const rewritten = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(rewritten.documents.updated).toBe(5);
    expect((await chunkRows('notes.txt')).rows).toEqual(before.rows);
  });

  it('deletes a document with its chunks and bumps the version; --prune removes vanished files and records', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const version = (await store.stats(workspace)).corpusVersion;
    expect(await store.deleteDocuments(workspace, [`${label}/notes.txt`])).toBe(1);
    expect((await chunkRows('notes.txt')).rowCount).toBe(0);
    expect((await store.stats(workspace)).corpusVersion).toBe(version + 1);

    await unlink(path.join(root, 'page.html'));
    await writeFile(path.join(root, 'faq.jsonl'), CANCEL_RECORD);
    const withoutPrune = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(withoutPrune.documents.removed).toBe(0);
    const pruned = await pipeline.ingestSources({ workspaceId: workspace, sources: [root], prune: true });
    expect(pruned.documents.removed).toBe(2);
    expect((await store.listDocuments(workspace)).map((doc) => doc.sourcePath)).toEqual([
      `${label}/faq.jsonl#q1`,
      `${label}/guides/locations.md`,
      `${label}/notes.txt`,
    ]);
  });

  it('reports bad files one by one and still ingests the rest; prune keeps documents of files that failed', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    await writeFile(path.join(root, 'scan.pdf'), '%PDF-1.7');
    await writeFile(path.join(root, 'layers.psd'), '8BPS');
    await writeFile(path.join(root, 'blob.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    await writeFile(path.join(root, 'spec.yaml'), 'openapi: 3.0.3\npaths: [unclosed\n');
    await symlink(path.join(root, 'missing-target.md'), path.join(root, 'dangling.md'));
    await writeFile(
      path.join(root, 'faq.jsonl'),
      `${JSON.stringify({ id: 'q1', text: 'Still fine.' })}\n{broken json\n`,
    );

    const summary = await pipeline.ingestSources({
      workspaceId: workspace,
      sources: [root, path.join(root, 'nope')],
      prune: true,
    });
    const byPath = Object.fromEntries(summary.failures.map((failure) => [failure.sourcePath, failure.code]));
    expect(byPath).toEqual({
      [`${label}/scan.pdf`]: 'PARSE_FAILED',
      [`${label}/layers.psd`]: 'UNSUPPORTED_FILE_TYPE',
      [`${label}/blob.md`]: 'UNSUPPORTED_FILE_TYPE',
      [`${label}/spec.yaml`]: 'PARSE_FAILED',
      [`${label}/dangling.md`]: 'FILE_UNREADABLE',
      [`${label}/faq.jsonl`]: 'PARSE_FAILED',
      [path.join(root, 'nope')]: 'NOT_FOUND',
    });
    expect(summary.documents.failed).toBe(7);
    expect(summary.documents.updated).toBe(1); // q1 changed
    // q2 vanished from a file that partly failed: it is kept until the file loads cleanly.
    const paths = (await store.listDocuments(workspace)).map((doc) => doc.sourcePath);
    expect(paths).toContain(`${label}/faq.jsonl#q2`);
    expect(paths).toContain(`${label}/guides/locations.md`);
  });

  it('does not duplicate chunks when two ingests of the same workspace run at once', async () => {
    const second = new IngestPipeline({ store, embedder, maxTokens: 120, overlapTokens: 20 });
    const [left, right] = await Promise.all([
      pipeline.ingestSources({ workspaceId: workspace, sources: [root] }),
      second.ingestSources({ workspaceId: workspace, sources: [root] }),
    ]);
    expect([...left.failures, ...right.failures]).toEqual([]);
    expect(left.documents.added + right.documents.added).toBe(5);
    expect(left.documents.added + left.documents.unchanged).toBe(5);
    const sequential = uniqueWorkspace('ingest-seq');
    await pipeline.ingestSources({ workspaceId: sequential, sources: [root] });
    expect((await store.stats(workspace)).chunks).toBe((await store.stats(sequential)).chunks);
    await dropWorkspace(sql, sequential);
    const duplicates = await sql.query(
      `SELECT document_id, chunk_index FROM rag_chunks WHERE workspace_id = $1
       GROUP BY document_id, chunk_index HAVING count(*) > 1`,
      [workspace],
    );
    expect(duplicates.rowCount).toBe(0);
    expect((await store.stats(workspace)).documents).toBe(5);
  });

  it('stores the embedding model and dimension with every chunk, and one copy of its vector', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const rows = await sql.query<{ model: string; dims: number; same: boolean }>(
      `SELECT DISTINCT embedding_model AS model, embedding_dimensions AS dims,
              vector_dims(embedding) = embedding_dimensions AS same
       FROM rag_chunks WHERE workspace_id = $1`,
      [workspace],
    );
    expect(rows.rows).toEqual([{ model: 'deterministic-hash-v1', dims: 768, same: true }]);
    const columns = await sql.query(
      `SELECT 1 FROM pg_attribute WHERE attrelid = 'rag_chunks'::regclass AND NOT attisdropped
         AND (format_type(atttypid, atttypmod) LIKE 'vector%' OR format_type(atttypid, atttypmod) = 'real[]')`,
    );
    expect(columns.rowCount).toBe(1);
  });

  it('rejects an embedder whose dimension does not fit the column, before writing anything', async () => {
    const small = new DeterministicEmbedder({ dimensions: 384 });
    await expect(store.assertEmbeddingDimensions(small.modelId, small.dimensions)).rejects.toMatchObject({
      code: 'EMBEDDING_DIMENSION_MISMATCH',
    });
    const mismatched = new IngestPipeline({ store, embedder: small, maxTokens: 120, overlapTokens: 20 });
    await expect(mismatched.ingestSources({ workspaceId: workspace, sources: [root] })).rejects.toMatchObject(
      {
        code: 'EMBEDDING_DIMENSION_MISMATCH',
      },
    );
    expect((await store.stats(workspace)).documents).toBe(0);
  });

  it('stores offsets in code points, so Postgres (and Python) slice astral characters right', async () => {
    await writeFile(
      path.join(root, 'math.md'),
      `# Sets\n\nThe state space 𝒮 and the action space 𝒜 define the MDP 🚀.\n\n## Next\n\n${'Beliefs over 𝒮 are updated after each observation. '.repeat(40)}\n`,
    );
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const rows = await sql.query<{ text: string; sliced: string }>(
      `SELECT c.text, substr(d.content, c.start_offset + 1, c.end_offset - c.start_offset) AS sliced
       FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE d.workspace_id = $1 AND d.source_path = $2`,
      [workspace, `${label}/math.md`],
    );
    expect(rows.rowCount).toBeGreaterThan(1);
    for (const row of rows.rows) expect(row.sliced).toBe(row.text);
  });

  it('keeps two sources whose files share a relative path apart, and refuses two folders of the same name', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'rag-other-'));
    const twin = path.join(other, label);
    await mkdir(twin);
    await writeFile(path.join(other, 'notes.txt'), 'Other notes\n\nEntirely different notes.\n');
    await writeFile(path.join(twin, 'notes.txt'), 'Twin notes\n\nSame folder name as the first source.\n');
    try {
      const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [root, other, twin] });
      expect(summary.failures).toEqual([
        expect.objectContaining({ sourcePath: `${label}/notes.txt`, code: 'INVALID_INPUT' }),
      ]);
      const paths = (await store.listDocuments(workspace)).map((doc) => doc.sourcePath);
      expect(paths).toContain(`${label}/notes.txt`);
      expect(paths).toContain(`${path.basename(other)}/notes.txt`);
      expect((await chunkRows('notes.txt')).rows[0]!.text).toContain('Carriers pick up parcels');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('does not prune the neighbours of a single-file source', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    const summary = await pipeline.ingestSources({
      workspaceId: workspace,
      sources: [path.join(root, 'notes.txt')],
      prune: true,
    });
    expect(summary.documents).toMatchObject({ unchanged: 1, removed: 0 });
    expect(await store.listDocuments(workspace)).toHaveLength(5);
  });

  it('removes a document whose file was emptied, and skips a new empty file without failing', async () => {
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    await writeFile(path.join(root, 'notes.txt'), '  \n');
    await writeFile(path.join(root, 'empty.md'), '');
    const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(summary.failures).toEqual([]);
    expect(summary.documents).toMatchObject({ removed: 1, skipped: 1, unchanged: 4 });
    expect((await chunkRows('notes.txt')).rowCount).toBe(0);
  });

  it('reports an unreadable folder and still ingests its siblings', async () => {
    await mkdir(path.join(root, 'loop'));
    await symlink(root, path.join(root, 'loop', 'back-to-root'));
    const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(summary.failures).toEqual([]);
    expect(summary.documents.added).toBe(5);
  });

  it('stops the run at the first document when the embedding server is down', async () => {
    const { OpenAiCompatibleEmbedder } = await import('../embed/index.js');
    const down = new OpenAiCompatibleEmbedder({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'm',
      dimensions: 768,
      maxRetries: 0,
    });
    const failing = new IngestPipeline({
      store,
      embedder: down,
      maxTokens: 120,
      overlapTokens: 20,
      concurrency: 1,
    });
    await expect(failing.ingestSources({ workspaceId: workspace, sources: [root] })).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
    });
    expect((await store.stats(workspace)).documents).toBe(0);
  });

  it('writes documents that concurrent callers ingest one at a time in shared transactions', async () => {
    // Every document is still being embedded when the first is ready, as with a queue's jobs.
    const callers = 4;
    let waiting = 0;
    let release: () => void = () => {};
    const together = new Promise<void>((resolve) => (release = resolve));
    const gathered: Embedder = {
      modelId: embedder.modelId,
      dimensions: embedder.dimensions,
      embed: async (options) => {
        if (++waiting === callers) release();
        await together;
        return embedder.embed(options);
      },
    };
    const shared = new IngestPipeline({ store, embedder: gathered, maxTokens: 120, overlapTokens: 20 });
    const summaries = await Promise.all(
      Array.from({ length: callers }, (_, index) =>
        shared.ingestInline(workspace, [
          {
            id: `notes/topic-${index}.md`,
            content: `# Topic ${index}\n\nDepot ${index} opens at ${index + 6}am.`,
          },
        ]),
      ),
    );
    expect(summaries.map((summary) => summary.documents.added)).toEqual([1, 1, 1, 1]);
    const segments = await sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM rag_lexical_segments WHERE workspace_id = $1',
      [workspace],
    );
    expect(segments.rows[0]!.count).toBeLessThan(callers);
    expect((await store.stats(workspace)).documents).toBe(callers);
    expect(integrityViolations(await checkCorpusIntegrity(sql, workspace))).toEqual([]);
  });

  it('keeps the BM25 statistics equal to a recount after adds, updates, prunes and deletes', async () => {
    const recount = async () => {
      const integrity = await checkCorpusIntegrity(sql, workspace);
      expect(integrityViolations(integrity)).toEqual([]);
      expect(integrity.chunks).toBeGreaterThan(0);
    };
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    await recount();
    await writeFile(
      path.join(root, 'notes.txt'),
      'Shipment notes\n\nPickups now happen three times a day.\n',
    );
    await unlink(path.join(root, 'page.html'));
    await pipeline.ingestSources({ workspaceId: workspace, sources: [root], prune: true });
    await recount();
    await store.deleteDocuments(workspace, [`${label}/faq.jsonl#q1`]);
    await recount();
  });
});
