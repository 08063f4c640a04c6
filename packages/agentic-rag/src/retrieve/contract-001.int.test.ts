import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { cl100kTokenizer, IngestPipeline } from '../ingest/index.js';
import { ChunkReader, CorpusStore } from '../store/index.js';
import type { LogFields, Logger } from '../telemetry/index.js';
import { buildContext } from './build-context.js';
import { assembleContext } from './context.js';
import { createRetriever } from './create-retriever.js';
import { detectIntent } from '../understand/index.js';
import { expandReferences, REFERENCE_SCORE_DECAY } from './references.js';
import type { RetrievalHit } from './types.js';

/**
 * The Knowledge Retriever's design document, replayed against the sample OpenAPI spec on the
 * real database: semantic search, breadth-first `ref_ids` expansion, context assembly, limits,
 * edge cases, and each configuration switch. Where we chose otherwise, docs/design-conformance.md.
 */
const API_DOCS = fileURLToPath(
  new URL('../../../../simulated_ingestion/northwind-logistics/api', import.meta.url),
);
const SPEC = 'api/openapi.yaml';
const POST = `${SPEC}#paths/locations/post`;

function recordingLogger() {
  const entries: Array<{ level: string; message: string; fields: LogFields | undefined }> = [];
  const logger: Logger = {
    debug: (message, fields) => entries.push({ level: 'debug', message, fields }),
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
    error: (message, fields) => entries.push({ level: 'error', message, fields }),
    child: () => logger,
  };
  const events = (event: string) => entries.filter((entry) => entry.fields?.event === event);
  return { logger, entries, events };
}

/** The real database, with every statement counted: how many round trips a lookup takes. */
function counting(sql: Sql): { sql: Sql; queries: () => number } {
  let count = 0;
  const counted = new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'query')
        return (...args: Parameters<Sql['query']>) => {
          count++;
          return target.query(...args);
        };
      return Reflect.get(target, property, receiver);
    },
  });
  return { sql: counted, queries: () => count };
}

const config = loadConfig({});

describe('001 "Configuration and Behavioral Control": every switch and default', () => {
  it.each([
    ['RETRIEVAL_MAX_PRIMARY_RESULTS', 5],
    ['RETRIEVAL_MAX_TOTAL_CHUNKS', 15],
    ['RETRIEVAL_MAX_DEPTH', 3],
    ['CONTEXT_TOKEN_LIMIT', 4000],
    ['ENABLE_QUERY_ANALYSIS', true],
    ['CONTEXT_PRIORITIZE_PRIMARY', true],
    ['RETRIEVAL_TIMEOUT_MS', 5000],
    ['LOG_RETRIEVAL_STATS', true],
    ['BATCH_REFERENCE_LOOKUP', true],
    // "Apply 60/40 split: reserve 60% slots for primary, 40% for references".
    ['RETRIEVAL_REFERENCE_SHARE', 0.4],
  ] as const)('%s defaults to %j', (key, expected) => {
    expect(config[key]).toBe(expected);
  });

  it.each([
    ['what fields', 'schema'],
    ['user object structure', 'schema'],
    ['data model', 'schema'],
    ['error codes', 'error'],
    ['failed request', 'error'],
    ['exception handling', 'error'],
  ] as const)('"Query patterns detected": %s is a %s question', (query, kind) => {
    expect(detectIntent(query).kind).toBe(kind);
  });
});

describe('001 Knowledge Retriever over the sample OpenAPI spec', () => {
  let sql: Sql;
  let chunks: ChunkReader;
  const workspaceId = uniqueWorkspace('c001');
  const prose = uniqueWorkspace('c001p');
  const embedder = new DeterministicEmbedder();
  const retrieverWith = (env: Record<string, string> = {}) => createRetriever(loadConfig(env), sql, embedder);

  /** A document's first chunk as a primary hit of score 1: expansion starts from exactly it. */
  const hitOf = async (sourcePath: string, ws = workspaceId): Promise<RetrievalHit> => {
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT c.id, c.chunk_id, d.id AS document_id, d.source_path, c.text, c.token_count
       FROM rag_documents d JOIN rag_chunks c ON c.document_id = d.id
       WHERE d.workspace_id = $1 AND d.source_path = $2 ORDER BY c.chunk_index LIMIT 1`,
      [ws, sourcePath],
    );
    const row = rows[0]!;
    return {
      id: Number(row.id),
      chunkId: String(row.chunk_id),
      documentId: Number(row.document_id),
      sourcePath,
      kind: 'openapi',
      title: null,
      url: null,
      text: String(row.text),
      tokenCount: Number(row.token_count),
      startOffset: 0,
      endOffset: 0,
      sectionPath: '',
      metadata: {},
      score: 1,
      fusedScore: 1,
      channels: {},
    };
  };
  const settings = { maxDepth: 3, maxChunks: 50, timeoutMs: 10_000 };

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    chunks = new ChunkReader(sql);
    const store = new CorpusStore(sql);
    const pipeline = new IngestPipeline({ store, embedder, maxTokens: 400, overlapTokens: 40 });
    await pipeline.ingestSources({ workspaceId, sources: [API_DOCS] });
    const write = (sourcePath: string, text: string, metadata: Record<string, unknown>, ws = workspaceId) =>
      store.writeDocument({ ...singleChunkDocument({ workspaceId: ws, sourcePath, text }), metadata });
    // The design's own ref_ids format: {"referenced_chunk_id": [additional_context], ...}.
    await write('notes/object-refs.md', 'object form', {
      ref_ids: { [`${SPEC}#components/schemas/Location`]: [], [`${SPEC}#paths/locations/post/errors`]: [] },
    });
    await write('notes/malformed.md', 'malformed refs', {
      ref_ids: 'api/openapi.yaml#components/schemas/Location',
    });
    await write('notes/dangling.md', 'points nowhere', { ref_ids: [`${SPEC}#components/schemas/Gone`] });
    await write('guides/a.md', 'Dock doors open at six in the morning.', {}, prose);
    await write('guides/b.md', 'Forklifts are charged overnight in bay two.', {}, prose);
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await dropWorkspace(sql, prose);
    await sql.close();
  });

  it('Stage 1 → 2 → 3: the best RETRIEVAL_MAX_PRIMARY_RESULTS hits, then what they reference, primary first', async () => {
    const result = await retrieverWith().retrieve({
      workspaceId,
      query: 'How do I create a location?',
      k: 8,
    });
    const { logger, events } = recordingLogger();
    const context = await buildContext(chunks, config, workspaceId, result, logger);
    expect(context.primary.map((chunk) => chunk.chunkId)).toEqual(
      result.hits.slice(0, 5).map((hit) => hit.chunkId),
    );
    expect(context.primary.map((chunk) => chunk.sourcePath)).toContain(POST);
    const depthOf = new Map(context.references.map((chunk) => [chunk.sourcePath, chunk.reference!.depth]));
    expect(depthOf.get(`${SPEC}#components/schemas/LocationInput`)).toBe(1);
    for (const chunk of context.references) expect(chunk.reference!.depth).toBeGreaterThanOrEqual(1);
    for (const chunk of context.references) expect(chunk.reference!.depth).toBeLessThanOrEqual(3);
    // "Orders chunks by relevance (primary results first, then dependencies)".
    expect(context.chunks).toEqual([...context.primary, ...context.references]);
    // Two-limit system and the 60/40 split.
    expect(context.chunks.length).toBeLessThanOrEqual(15);
    expect(context.references.length).toBeLessThanOrEqual(6);
    // "Estimates total token count using tiktoken": cl100k counts of the chunks' text.
    const tokenizer = cl100kTokenizer();
    expect(context.totalTokens).toBe(
      context.chunks.reduce((sum, chunk) => sum + tokenizer.count(chunk.text), 0),
    );
    expect(context.totalTokens).toBeLessThanOrEqual(4000);
    // LOG_RETRIEVAL_STATS (on by default): one structured line with the stats.
    expect(events('retrieval-stats')).toHaveLength(1);
    expect(events('retrieval-stats')[0]!.fields).toMatchObject({
      primaryChunks: context.primary.length,
      referencedChunks: context.references.length,
      totalTokens: context.totalTokens,
      depth: context.stats.references!.depth,
      visited: context.stats.references!.visited,
      missing: 0,
      limitsHit: context.stats.limitsHit,
      timedOut: false,
    });
  });

  it('"Consistency: Same query returns same essential chunks"', async () => {
    const retriever = retrieverWith();
    const ids = async () =>
      (
        await buildContext(
          chunks,
          config,
          workspaceId,
          await retriever.retrieve({ workspaceId, query: 'delete a location' }),
        )
      ).chunks.map((chunk) => chunk.chunkId);
    expect(await ids()).toEqual(await ids());
  });

  it('BFS level by level up to max_depth; RETRIEVAL_MAX_DEPTH=1 stops at the direct references', async () => {
    const post = await hitOf(POST);
    const full = await expandReferences(chunks, workspaceId, [post], settings);
    const depths = full.references.map((hit) => hit.reference.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(full.stats.depth).toBeGreaterThanOrEqual(2);
    const shallow = await expandReferences(chunks, workspaceId, [post], { ...settings, maxDepth: 1 });
    expect(new Set(shallow.references.map((hit) => hit.reference.depth))).toEqual(new Set([1]));
    const result = await retrieverWith().retrieve({ workspaceId, query: 'How do I create a location?' });
    const context = await buildContext(chunks, { ...config, RETRIEVAL_MAX_DEPTH: 1 }, workspaceId, result);
    expect(context.references.every((chunk) => chunk.reference!.depth === 1)).toBe(true);
  });

  it('"Circular Reference Protection": a cycle ends, the revisit is counted and logged', async () => {
    const shipment = await hitOf(`${SPEC}#components/schemas/Shipment`);
    const { logger, events } = recordingLogger();
    const { references, stats } = await expandReferences(
      chunks,
      workspaceId,
      [shipment],
      { ...settings, maxDepth: 10 },
      logger,
    );
    expect(references.map((hit) => hit.sourcePath)).toContain(`${SPEC}#components/schemas/ShipmentEvent`);
    expect(new Set(references.map((hit) => hit.chunkId)).size).toBe(references.length);
    expect(stats.revisited).toBeGreaterThan(0);
    expect(events('reference-revisited').length).toBeGreaterThan(0);
  });

  it('ref_ids in 001\'s object form {"id": [...]} are followed like a list', async () => {
    const { references } = await expandReferences(
      chunks,
      workspaceId,
      [await hitOf('notes/object-refs.md')],
      {
        ...settings,
        maxDepth: 1,
      },
    );
    expect(new Set(references.map((hit) => hit.sourcePath))).toEqual(
      new Set([`${SPEC}#components/schemas/Location`, `${SPEC}#paths/locations/post/errors`]),
    );
  });

  it('"Malformed Metadata": no references, a debug line, processing goes on', async () => {
    const { logger, events } = recordingLogger();
    const malformed = await hitOf('notes/malformed.md');
    const { references } = await expandReferences(
      chunks,
      workspaceId,
      [malformed, await hitOf(POST)],
      settings,
      logger,
    );
    expect(references.length).toBeGreaterThan(0);
    expect(references.every((hit) => hit.reference.from !== 'notes/malformed.md')).toBe(true);
    expect(events('reference-malformed')).toMatchObject([
      { level: 'debug', fields: { sourcePath: 'notes/malformed.md' } },
    ]);
  });

  it('"Missing References": a warning, the rest of the context stays valid', async () => {
    const { logger, events } = recordingLogger();
    const { references, stats } = await expandReferences(
      chunks,
      workspaceId,
      [await hitOf('notes/dangling.md'), await hitOf(POST)],
      settings,
      logger,
    );
    expect(stats.missing).toEqual([`${SPEC}#components/schemas/Gone`]);
    expect(events('reference-missing')).toMatchObject([{ level: 'warn' }]);
    expect(references.length).toBeGreaterThan(0);
  });

  it('"Timeout Handling": partial results with a timeout flag in the stats', async () => {
    const post = await hitOf(POST);
    const expansion = await expandReferences(chunks, workspaceId, [post], { ...settings, timeoutMs: 0 });
    expect(expansion.stats).toMatchObject({ partial: true, limitsHit: ['timeout'] });
    const result = await retrieverWith().retrieve({ workspaceId, query: 'How do I create a location?' });
    const context = assembleContext(result, { tokenLimit: 4000, maxChunks: 15 }, expansion);
    expect(context.stats.partial).toBe(true);
    expect(context.stats.limitsHit).toContain('timeout');
  });

  it('"Empty Search Results": an empty but well-formed KnowledgeContext', async () => {
    const empty = uniqueWorkspace('c001e');
    const result = await retrieverWith().retrieve({ workspaceId: empty, query: 'anything at all' });
    const context = await buildContext(chunks, config, empty, result);
    expect(context).toMatchObject({ primary: [], references: [], chunks: [], totalTokens: 0 });
    expect(context.stats).toMatchObject({ limitsHit: [], partial: false, references: null });
  });

  it('CONTEXT_TOKEN_LIMIT and RETRIEVAL_MAX_TOTAL_CHUNKS cut the context and say so', async () => {
    const result = await retrieverWith().retrieve({
      workspaceId,
      query: 'How do I create a location?',
      k: 10,
    });
    const small = await buildContext(chunks, { ...config, CONTEXT_TOKEN_LIMIT: 300 }, workspaceId, result);
    expect(small.totalTokens).toBeLessThanOrEqual(Math.max(300, small.primary[0]!.tokenCount));
    expect(small.stats.limitsHit).toContain('token_budget');
    const few = await buildContext(chunks, { ...config, RETRIEVAL_MAX_TOTAL_CHUNKS: 3 }, workspaceId, result);
    expect(few.chunks.length).toBeLessThanOrEqual(3);
    expect(
      few.stats.limitsHit.some((limit) => limit === 'chunk_budget' || limit === 'reference_budget'),
    ).toBe(true);
  });

  it('ENABLE_QUERY_ANALYSIS: schema and endpoint questions narrow the search; off, nothing is recognised', async () => {
    const on = retrieverWith();
    const off = retrieverWith({ ENABLE_QUERY_ANALYSIS: 'false' });
    const schema = await on.retrieve({ workspaceId, query: 'What fields does the Location schema have?' });
    expect(schema.intent).toMatchObject({ kind: 'schema', narrowedTo: { chunk_type: 'schema' } });
    const endpoint = await on.retrieve({ workspaceId, query: 'How do I create a location?' });
    expect(endpoint.intent.kind).toBe('endpoint');
    for (const query of ['What fields does the Location schema have?', 'How do I create a location?']) {
      expect((await off.retrieve({ workspaceId, query })).intent).toMatchObject({
        kind: 'general',
        source: 'none',
        narrowedTo: null,
      });
    }
    // "If filtered search returns < 3 results, retry without filters".
    const fallback = await on.retrieve({ workspaceId: prose, query: 'what fields do dock doors have' });
    expect(fallback.intent).toMatchObject({ kind: 'schema', narrowedTo: null });
    expect(fallback.hits.length).toBeGreaterThan(0);
  });

  it('CONTEXT_PRIORITIZE_PRIMARY=false: hits and references ordered by score alone', async () => {
    const result = await retrieverWith().retrieve({
      workspaceId,
      query: 'cancel a shipment',
      k: 8,
    });
    const prioritized = await buildContext(chunks, config, workspaceId, result);
    const byScore = await buildContext(
      chunks,
      { ...config, CONTEXT_PRIORITIZE_PRIMARY: false },
      workspaceId,
      result,
    );
    const scores = byScore.chunks.map((chunk) => chunk.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // A reference scores its hit's score, halved per level.
    for (const chunk of byScore.references) {
      expect(chunk.score).toBeLessThanOrEqual(
        result.hits[0]!.score * REFERENCE_SCORE_DECAY ** chunk.reference!.depth + 1e-9,
      );
    }
    // Here a direct dependency of the best hit outranks a weaker hit: the two orders differ.
    const firstReference = byScore.chunks.findIndex((chunk) => chunk.reference);
    const lastPrimary = byScore.chunks.findLastIndex((chunk) => !chunk.reference);
    expect(firstReference).toBeGreaterThanOrEqual(0);
    expect(firstReference).toBeLessThan(lastPrimary);
    expect(byScore.chunks.map((chunk) => chunk.chunkId)).not.toEqual(
      prioritized.chunks.map((chunk) => chunk.chunkId),
    );
  });

  it('LOG_RETRIEVAL_STATS=false: no stats line', async () => {
    const result = await retrieverWith().retrieve({ workspaceId, query: 'How do I create a location?' });
    const { logger, events } = recordingLogger();
    await buildContext(chunks, { ...config, LOG_RETRIEVAL_STATS: false }, workspaceId, result, logger);
    expect(events('retrieval-stats')).toEqual([]);
  });

  it('BATCH_REFERENCE_LOOKUP: one query per level, or one per document; the same references', async () => {
    const post = await hitOf(POST);
    const batched = counting(sql);
    const one = await expandReferences(new ChunkReader(batched.sql), workspaceId, [post], settings);
    const single = counting(sql);
    const each = await expandReferences(new ChunkReader(single.sql), workspaceId, [post], {
      ...settings,
      batch: false,
    });
    const shape = (hits: typeof one.references) =>
      hits.map((hit) => [hit.chunkId, hit.reference.depth, hit.reference.from]);
    expect(shape(each.references)).toEqual(shape(one.references));
    const targets = one.stats.visited - 1;
    // The primary document's own ref_ids, then one lookup per level (batched) or per document.
    expect(one.stats.lookups).toBeLessThanOrEqual(settings.maxDepth);
    expect(batched.queries()).toBe(1 + one.stats.lookups);
    expect(each.stats.lookups).toBe(targets);
    expect(single.queries()).toBe(1 + targets);
    expect(targets).toBeGreaterThan(one.stats.lookups);
  });
});
