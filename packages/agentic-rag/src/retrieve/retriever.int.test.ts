import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore } from '../store/index.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { createRetriever } from './create-retriever.js';
import type { HybridRetriever } from './retriever.js';

const embedder = new DeterministicEmbedder();

const CORPUS: Record<string, string> = {
  'api/openapi.yaml': `openapi: 3.0.3
info:
  title: Depot API
paths:
  /locations:
    get:
      operationId: listLocations
      summary: List locations of the account, newest first.
    post:
      operationId: createLocation
      summary: Create a location (warehouse, store or hub).
  /locations/{locationId}:
    get:
      operationId: getLocation
      summary: Retrieve one location by id.
    delete:
      operationId: deleteLocation
      summary: Delete a location that has no open shipments.
`,
  'textbook/ch03.md': `# Chapter 3: Inference

## 3.3 Variable Elimination

**Algorithm 3.2.** Variable elimination sums out hidden variables one at a time, multiplying the
factors that mention each variable before marginalising it.
`,
  'textbook/ch04.md': `# Chapter 4: Parameter Learning

## 4.1 Belief Propagation Revisited

Belief propagation passes messages on a tree. It generalises the idea of Algorithm 3.2 to
message passing between neighbouring factors, and what is Algorithm 3.2 good for is asked often.
`,
  'textbook/ch19.md': `# Chapter 19: Beliefs

## 19.2 Discrete State Filter

In a POMDP the agent keeps a belief, a distribution over states. After action a and observation
o the belief update is b'(s') proportional to O(o | a, s') times the sum over s of T(s' | s, a) b(s).
`,
  'guides/carriers.md': `# Carrier guide

A carrier account is suspended after three failed pickups in one week. Suspended carriers answer
every rate request with CARRIER_SUSPENDED until the account manager reinstates them.
`,
};

describe.each(testBackends())('HybridRetriever on $name', (backend) => {
  let sql: Sql;
  let retriever: HybridRetriever;
  let plainBm25: HybridRetriever;
  let root: string;
  const workspace = uniqueWorkspace('retrieve');
  const bm25Workspace = uniqueWorkspace('bm25');

  beforeAll(async () => {
    sql = await backend.open();
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-retrieve-'));
    const corpus = path.join(root, 'corpus');
    for (const [file, text] of Object.entries(CORPUS)) {
      await mkdir(path.dirname(path.join(corpus, file)), { recursive: true });
      await writeFile(path.join(corpus, file), text);
    }
    const store = new CorpusStore(sql);
    const pipeline = new IngestPipeline({ store, embedder, maxTokens: 400, overlapTokens: 40 });
    const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [corpus] });
    expect(summary.failures).toEqual([]);
    retriever = createRetriever(loadConfig({}), sql, embedder);
    // The hand-worked BM25 below is Okapi BM25 at the textbook k1 and b, without feedback.
    plainBm25 = createRetriever(
      loadConfig({ BM25_K1: '1.2', BM25_B: '0.75', LEXICAL_FEEDBACK_WEIGHT: '0' }),
      sql,
      embedder,
    );

    // Three chunks whose BM25 scores are worked out by hand below: no stopwords, no headings,
    // so every word is one lexeme of the chunk's length.
    const chunk = (sourcePath: string, text: string) =>
      singleChunkDocument({
        workspaceId: bm25Workspace,
        sourcePath,
        text,
        embedding: embedder.embedOne(text),
        embeddingModel: embedder.modelId,
      });
    await store.writeDocument(chunk('a', 'parcel parcel depot'));
    await store.writeDocument(chunk('b', 'parcel truck'));
    await store.writeDocument(chunk('c', 'truck truck truck depot'));
  });
  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await dropWorkspace(sql, bm25Workspace);
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('scores the lexical channel exactly as BM25 computed by hand', async () => {
    // N = 3 chunks, average length (3 + 2 + 4) / 3 = 3, df(parcel) = 2, k1 = 1.2, b = 0.75.
    // idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6) = 0.470004
    // a: tf 2, |a| = 3: 0.470004 · 2·2.2 / (2 + 1.2·(0.25 + 0.75·3/3)) = 0.470004 · 4.4 / 3.2 = 0.646255
    // b: tf 1, |b| = 2: 0.470004 · 1·2.2 / (1 + 1.2·(0.25 + 0.75·2/3)) = 0.470004 · 2.2 / 1.9 = 0.544215
    const result = await plainBm25.retrieve({
      workspaceId: bm25Workspace,
      query: 'parcel',
      channels: ['lexical'],
      rerank: false,
    });
    expect(result.hits.map((hit) => [hit.sourcePath, hit.channels.lexical!.score])).toEqual([
      ['a', expect.closeTo(0.646255, 5)],
      ['b', expect.closeTo(0.544215, 5)],
    ]);
    // Two terms add up; "truck" (tf 3 in the longest chunk) saturates rather than triples:
    // c: 0.470004 · 3·2.2 / (3 + 1.2·(0.25 + 0.75·4/3)) + depot 0.470004 · 2.2 / (1 + 1.2·1.25)
    const both = await plainBm25.retrieve({
      workspaceId: bm25Workspace,
      query: 'truck depot',
      channels: ['lexical'],
      rerank: false,
    });
    const c = both.hits.find((hit) => hit.sourcePath === 'c')!;
    expect(c.channels.lexical!.score).toBeCloseTo(0.470004 * (6.6 / 4.5) + 0.470004 * (2.2 / 2.5), 5);
    expect(both.hits[0]!.sourcePath).toBe('c');
  });

  it('puts the exact API operation first for "POST /locations"', async () => {
    const result = await retriever.retrieve({
      workspaceId: workspace,
      query: 'POST /locations create a location',
      k: 3,
    });
    // An OpenAPI spec is ingested one document per operation.
    expect(result.hits[0]!.sourcePath).toBe('corpus/api/openapi.yaml#paths/locations/post');
    expect(result.hits[0]!.text).toMatch(/POST \/locations[\s\S]*createLocation/);
    expect(result.hits[0]!.rerank?.features?.identifier).toBe(1);
  });

  it('puts the definition of a numbered entity before a mention of it', async () => {
    const result = await retriever.retrieve({
      workspaceId: workspace,
      query: 'What is Algorithm 3.2?',
      k: 3,
    });
    expect(result.hits[0]!.text).toContain('**Algorithm 3.2.** Variable elimination');
    expect(
      result.hits.findIndex((hit) => hit.text.includes('generalises the idea of Algorithm 3.2')),
    ).toBeGreaterThan(0);
  });

  it('corrects a misspelt word against the workspace vocabulary and reports it', async () => {
    const result = await retriever.retrieve({ workspaceId: workspace, query: 'POMP belief update', k: 3 });
    // "pomp" is English, but written in capitals it is an acronym: only the corpus knows those.
    expect(result.corrections).toEqual([
      { from: 'POMP', to: 'POMDP', similarity: expect.any(Number), evidence: expect.any(Number) },
    ]);
    expect(result.correctedQuery).toBe('POMDP belief update');
    expect(result.hits[0]!.sourcePath).toBe('corpus/textbook/ch19.md');
    expect(result.hits[0]!.channels.lexical).toBeDefined();
  });

  it('finds an error code with both channels and says why for every hit', async () => {
    const result = await retriever.retrieve({ workspaceId: workspace, query: 'CARRIER_SUSPENDED', k: 2 });
    expect(result.hits[0]!.sourcePath).toBe('corpus/guides/carriers.md');
    for (const hit of result.hits) {
      expect(Object.keys(hit.channels).length).toBeGreaterThan(0);
      for (const channel of Object.values(hit.channels)) expect(channel.rank).toBeGreaterThanOrEqual(1);
    }
    expect(result.stats.stages.map((stage) => stage.name)).toEqual(
      expect.arrayContaining(['analyze', 'dense', 'lexical', 'hydrate', 'rerank']),
    );
  });

  it('narrows by source prefix and by kind, on both channels', async () => {
    const textbook = await retriever.retrieve({
      workspaceId: workspace,
      query: 'belief location carrier',
      k: 10,
      filters: { sourcePrefix: 'corpus/textbook/' },
    });
    expect(textbook.hits.length).toBeGreaterThan(0);
    expect(textbook.hits.every((hit) => hit.sourcePath.startsWith('corpus/textbook/'))).toBe(true);
    const spec = await retriever.retrieve({
      workspaceId: workspace,
      query: 'location',
      k: 10,
      filters: { kind: 'openapi' },
    });
    expect(spec.hits.length).toBeGreaterThan(0);
    expect(new Set(spec.hits.map((hit) => hit.kind))).toEqual(new Set(['openapi']));
  });

  it('runs one channel alone when asked', async () => {
    const dense = await retriever.retrieve({
      workspaceId: workspace,
      query: 'belief update',
      channels: ['vector'],
      k: 3,
    });
    expect(dense.stats.candidates.lexical).toBe(0);
    expect(dense.hits.every((hit) => hit.channels.vector && !hit.channels.lexical)).toBe(true);
  });

  it('returns a well-formed empty result for an empty workspace', async () => {
    const result = await retriever.retrieve({
      workspaceId: uniqueWorkspace('empty'),
      query: 'anything at all',
    });
    expect(result.hits).toEqual([]);
    expect(result.corrections).toEqual([]);
    expect(result.stats.candidates).toEqual({ vector: 0, lexical: 0, graph: 0 });
  });

  // Bad input (an empty or overlong query, k out of range, an unknown filter, a malformed
  // workspace) is refused once, by the service: apps/api/src/graphql.int.test.ts and the access
  // and fuzz tests check the codes and messages at every door.
});
