import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { ChunkReader, CorpusStore } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import { buildContext } from './build-context.js';
import { createRetriever } from './create-retriever.js';
import { expandReferences } from './references.js';
import type { HybridRetriever } from './retriever.js';
import type { RetrievalHit } from './types.js';

const API_DOCS = fileURLToPath(
  new URL('../../../../simulated_ingestion/northwind-logistics/api', import.meta.url),
);
const SPEC = 'api/openapi.yaml';

describe.each(testBackends())('reference expansion over the sample OpenAPI spec on $name', (backend) => {
  let sql: Sql;
  let chunks: ChunkReader;
  let retriever: HybridRetriever;
  const workspaceId = uniqueWorkspace('refs');
  const settings = { maxDepth: 3, maxChunks: 50, timeoutMs: 10_000 };

  const hitFor = async (sourcePath: string, query = sourcePath): Promise<RetrievalHit> => {
    const result = await retriever.retrieve({ workspaceId, query, k: 50, intent: false });
    const hit = result.hits.find((candidate) => candidate.sourcePath === sourcePath);
    if (!hit) throw new Error(`no hit for ${sourcePath}`);
    return hit;
  };

  beforeAll(async () => {
    sql = await backend.open();
    chunks = new ChunkReader(sql);
    const embedder = new DeterministicEmbedder();
    const store = new CorpusStore(sql);
    const pipeline = new IngestPipeline({ store, embedder, maxTokens: 400, overlapTokens: 40 });
    await pipeline.ingestSources({ workspaceId, sources: [API_DOCS] });
    // A document whose reference names nothing stored (a deleted or dangling target).
    const dangling = singleChunkDocument({
      workspaceId,
      sourcePath: 'notes/dangling.md',
      text: 'points nowhere',
    });
    await store.writeDocument({
      ...dangling,
      metadata: { ref_ids: ['api/gone.yaml#components/schemas/Gone'] },
    });
    retriever = createRetriever(loadConfig({}), sql, embedder);
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
  });

  it('follows $refs breadth first: the operation’s schemas, then theirs', async () => {
    const post = await hitFor(`${SPEC}#paths/locations/post`);
    const { references, stats } = await expandReferences(chunks, workspaceId, [post], settings);
    const depthOf = new Map(references.map((hit) => [hit.sourcePath, hit.reference.depth]));
    expect(depthOf.get(`${SPEC}#components/schemas/LocationInput`)).toBe(1);
    expect(depthOf.get(`${SPEC}#paths/locations/post/errors`)).toBe(1);
    // Every reference is reached from a document the previous level reached.
    for (const hit of references) {
      const parent = hit.reference.from;
      expect(parent === post.sourcePath || depthOf.get(parent) === hit.reference.depth - 1).toBe(true);
    }
    expect(stats.depth).toBeGreaterThanOrEqual(2);
    expect(new Set(references.map((hit) => hit.chunkId)).size).toBe(references.length);
  });

  it('ends on reference cycles (Shipment → ShipmentEvent → Shipment)', async () => {
    const shipment = await hitFor(`${SPEC}#components/schemas/Shipment`, 'Shipment schema');
    const { references } = await expandReferences(chunks, workspaceId, [shipment], {
      ...settings,
      maxDepth: 10,
    });
    const paths = references.map((hit) => hit.sourcePath);
    expect(paths).toContain(`${SPEC}#components/schemas/ShipmentEvent`);
    expect(paths).not.toContain(`${SPEC}#components/schemas/Shipment`);
  });

  it('logs and skips references to documents that are not stored', async () => {
    const dangling = await hitFor('notes/dangling.md', 'points nowhere');
    const warnings: unknown[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (_message: string, fields?: unknown) => warnings.push(fields),
      error: () => {},
      child: () => logger,
    };
    const { references, stats } = await expandReferences(chunks, workspaceId, [dangling], settings, logger);
    expect(references).toEqual([]);
    expect(stats.missing).toEqual(['api/gone.yaml#components/schemas/Gone']);
    expect(warnings).toHaveLength(1);
  });

  it('stops at the chunk budget, and at the deadline with the context flagged partial', async () => {
    const post = await hitFor(`${SPEC}#paths/locations/post`);
    const budgeted = await expandReferences(chunks, workspaceId, [post], { ...settings, maxChunks: 2 });
    expect(budgeted.references).toHaveLength(2);
    expect(budgeted.stats.limitsHit).toContain('reference_budget');
    const late = await expandReferences(chunks, workspaceId, [post], { ...settings, timeoutMs: -1 });
    expect(late.stats.partial).toBe(true);
    expect(late.references).toEqual([]);
  });

  it('fills the context with the referenced schemas within the 60/40 split', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'What endpoints can I use to create a location?',
      k: 10,
    });
    const context = await buildContext(chunks, loadConfig({}), workspaceId, result);
    expect(context.references.length).toBeGreaterThan(0);
    expect(context.references.length).toBeLessThanOrEqual(6);
    expect(context.primary.length + context.references.length).toBeLessThanOrEqual(15);
    expect(context.references.map((chunk) => chunk.sourcePath)).toContain(
      `${SPEC}#components/schemas/LocationInput`,
    );
    expect(context.stats.partial).toBe(false);
  });
});
