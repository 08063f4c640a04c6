import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { NumberedEntityExtractor, OfflineEntityExtractor, PostgresGraphStore } from '../graph/index.js';
import { IngestPipeline, loadKnowledgePack } from '../ingest/index.js';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../llm/index.js';
import { createRetriever } from '../retrieve/index.js';
import { CorpusStore } from '../store/index.js';
import { structureByRules } from './rule-based.js';
import { structureKnowledge } from './structure.js';

/**
 * The Knowledge Integration design document (docs/knowledge-packs.md), stages 1 and 2, replayed
 * on the real database: its KnowledgeDataLoader pack and its structured trace piece verbatim
 * (fixtures/), its free text through both structurers, its validation and security rules. Stages
 * 3 and 4 (provider routing, formatter) are replayed over the API in
 * apps/api/src/knowledge-004.int.test.ts.
 */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const DATA_LOADER_PACK = fixture('004-data-loader-pack.json');
const TRACE_PIECE = fixture('004-structured-trace.json');
/** Path A's expert text and the trace's step 1, as the document writes them. */
const PATH_A_TEXT =
  'Initializing LES from a converged RANS cuts spin-up by ~40%. Use CFL of 0.3 for the first 1000 time steps, then ramp to 0.8.';
const TRACE_TEXT = 'Initialize LES from converged RANS -- cuts spin-up by ~40%';

describe.each(testBackends())('004 knowledge ingestion and storage on $name', (backend) => {
  let sql: Sql;
  let chat: ChatServer;
  let pipeline: IngestPipeline;
  let graph: PostgresGraphStore;
  const replies: string[] = [];
  const ws = uniqueWorkspace('k004');

  beforeAll(async () => {
    sql = await backend.open();
    graph = new PostgresGraphStore(sql);
    pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder: new DeterministicEmbedder(),
      maxTokens: 400,
      overlapTokens: 60,
      // as the runtime has them: a pipeline without extractors writes no graph at all
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
    });
    chat = await startChatServer((_request, response) =>
      sendJson(response, 200, chatCompletion({ content: replies.shift() ?? 'no more replies' })),
    );
  });

  afterAll(async () => {
    await sql.query('DELETE FROM rag_knowledge_checkins WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await chat.close();
    await sql.close();
  });

  const documentsOf = async (prefix: string) =>
    (
      await sql.query<{ source_path: string; metadata: Record<string, unknown> }>(
        'SELECT source_path, metadata FROM rag_documents WHERE workspace_id = $1 AND source_path LIKE $2 ORDER BY 1',
        [ws, `${prefix}#%`],
      )
    ).rows;

  it('Path B: stores the KnowledgeDataLoader pack whole — metadata, piece, nodes and edge', async () => {
    const summary = await pipeline.ingestInline(ws, [{ id: 'packs/les.json', content: DATA_LOADER_PACK }]);
    expect(summary.failures).toEqual([]);
    const stored = new Map(
      (await documentsOf('packs/les.json')).map((row) => [row.source_path, row.metadata]),
    );
    expect([...stored.keys()]).toEqual([
      'packs/les.json#graph',
      'packs/les.json#les-rans-init',
      'packs/les.json#profile/user:alice',
    ]);
    // metadata: an EntityMetadata with its entity_type and properties
    expect(stored.get('packs/les.json#profile/user:alice')).toMatchObject({
      entity_id: 'user:alice',
      entity_type: 'user',
      info_type: 'user_profile',
      profile: { specialization: 'turbomachinery', team: 'aero' },
    });
    // pieces: every field of the piece
    expect(stored.get('packs/les.json#les-rans-init')).toMatchObject({
      piece_id: 'les-rans-init',
      knowledge_type: 'procedure',
      info_type: 'instructions',
      tags: ['les', 'initialization', 'rans'],
      entity_id: 'user:alice',
    });
    const [piece] = loadKnowledgePack('packs/les.json', JSON.parse(DATA_LOADER_PACK)).documents;
    expect(piece).toMatchObject({
      text: 'Initialize transient LES from converged RANS -- cuts spin-up by ~40%',
      embeddingText: 'LES RANS initialization spin-up transient',
    });
    // graph: both nodes with their labels, the edge with its piece_id
    const nodes = await graph.getEntities({ workspaceId: ws, ids: ['User:alice', 'Technique:les'] });
    expect(nodes.map((node) => [node.id, node.properties.label]).sort()).toEqual([
      ['Technique:les', 'LES'],
      ['User:alice', 'Alice'],
    ]);
    const around = await graph.neighbourhood({ workspaceId: ws, seeds: ['User:alice'], hops: 1 });
    expect(around.edges).toEqual([
      expect.objectContaining({ from: 'User:alice', to: 'Technique:les', type: 'SPECIALIZES_IN' }),
    ]);
    expect(stored.get('packs/les.json#graph')?.edges).toEqual([
      {
        source_id: 'user:alice',
        target_id: 'technique:les',
        from: 'User:alice',
        to: 'Technique:les',
        edge_type: 'SPECIALIZES_IN',
        properties: { piece_id: 'les-rans-init' },
      },
    ]);
  });

  it('Path B: pieces are searchable in their entity’s namespace', async () => {
    const retriever = createRetriever(
      loadConfig({ LOG_LEVEL: 'silent' }),
      sql,
      new DeterministicEmbedder(),
      undefined,
      graph,
    );
    const found = await retriever.retrieve({
      workspaceId: ws,
      query: 'Set up an LES simulation for jet noise',
      k: 3,
      filters: { kind: 'knowledge', entity_id: 'user:alice', info_type: 'instructions' },
    });
    expect(found.hits.map((hit) => hit.sourcePath)).toEqual(['packs/les.json#les-rans-init']);
  });

  it('trace step 2–3: the structured piece, verbatim, loads as one KnowledgePiece', async () => {
    const summary = await pipeline.ingestInline(ws, [{ id: 'packs/trace.json', content: TRACE_PIECE }]);
    expect(summary.failures).toEqual([]);
    expect(await documentsOf('packs/trace.json')).toEqual([
      {
        source_path: 'packs/trace.json#les-rans-init',
        metadata: {
          pack_id: 'packs/trace.json',
          piece_id: 'les-rans-init',
          knowledge_type: 'procedure',
          info_type: 'instructions',
          tags: ['les', 'initialization', 'rans'],
        },
      },
    ]);
  });

  it('Path A: the LLM structures the expert’s text (retrying malformed output) and the check-in is saved', async () => {
    replies.length = 0;
    replies.push('Here is the JSON you asked for.', DATA_LOADER_PACK);
    chat.requests.length = 0;
    const llm = new OpenAiChatLlm({ baseUrl: chat.url, model: 'structurer', maxRetries: 0 });
    const result = await structureKnowledge({
      text: PATH_A_TEXT,
      workspaceId: ws,
      entityId: 'user:alice',
      source: 'alice-les',
      llm,
      maxRetries: 1,
      sql,
    });
    expect(result.pack).toEqual(JSON.parse(DATA_LOADER_PACK));
    const prompt = String(chat.requests[0]!.body?.messages?.[0]?.content);
    // the structuring prompt: entities, facts, procedures, relationships; no credentials
    expect(prompt).toMatch(/entities,\s+facts, procedures and relationships/);
    expect(prompt).toMatch(/Never copy credentials or sensitive data/);
    expect(prompt).toContain('"node_id"');
    expect(chat.requests[0]!.body?.messages?.[1]?.content).toContain(PATH_A_TEXT);
    expect(chat.requests).toHaveLength(2);
    const checkIn = await sql.query<{ input: string; attempts: number; output: { pack: unknown } }>(
      'SELECT input, attempts, output FROM rag_knowledge_checkins WHERE id = $1',
      [result.checkInId],
    );
    expect(checkIn.rows[0]).toMatchObject({
      input: PATH_A_TEXT,
      attempts: 2,
      output: { pack: JSON.parse(DATA_LOADER_PACK) },
    });
  });

  it('Path A without a model: rules file the trace’s text as a procedure for instructions', () => {
    const pack = structureByRules(TRACE_TEXT, { entityId: 'user:alice', source: 'alice' });
    expect(pack.pieces).toEqual([
      expect.objectContaining({
        content: TRACE_TEXT,
        knowledge_type: 'procedure',
        info_type: 'instructions',
        tags: ['les', 'rans'],
        entity_id: 'user:alice',
      }),
    ]);
    expect(pack.graph).toEqual({ nodes: [], edges: [] });
  });

  it('the loader table: each invalid item is reported and skipped, the rest loads', () => {
    const pack = JSON.parse(DATA_LOADER_PACK) as {
      metadata: Record<string, unknown>;
      pieces: Array<Record<string, unknown>>;
      graph: { nodes: unknown[]; edges: unknown[] };
    };
    pack.metadata['user:bob'] = { properties: { team: 'cfd' } }; // no entity_type
    pack.pieces.push(
      { ...pack.pieces[0], piece_id: 'empty', content: ' ' },
      { ...pack.pieces[0], piece_id: 'token', content: 'Authorization: Bearer abcdefghijklmnopqrstu' },
      { ...pack.pieces[0], piece_id: 'kind', knowledge_type: 'Rumour' },
    );
    pack.graph.edges.push({ source_id: 'user:alice', target_id: 'technique:dns', edge_type: 'USES' });
    const loaded = loadKnowledgePack('p.json', pack);
    expect(loaded.failures.map((failure) => [failure.sourcePath, failure.code])).toEqual([
      ['p.json#metadata.user:bob', 'INVALID_INPUT'],
      ['p.json#empty', 'INVALID_INPUT'],
      ['p.json#token', 'INVALID_INPUT'],
      ['p.json#kind', 'INVALID_INPUT'],
      ['p.json#graph.edges[1]', 'INVALID_INPUT'],
    ]);
    expect(loaded.failures.map((failure) => failure.message)).toEqual([
      expect.stringMatching(/^invalid entity metadata: entity_type: /),
      'invalid piece: content: content is empty',
      expect.stringMatching(/^piece rejected: it contains a bearer token/),
      expect.stringMatching(/^invalid piece: knowledge_type: /),
      'edge user:alice → technique:dns names a node the pack does not have',
    ]);
    expect(loaded.documents.map((document) => document.sourcePath)).toEqual([
      'p.json#les-rans-init',
      'p.json#profile/user:alice',
      'p.json#graph',
    ]);
  });

  it.each(['Fact', 'Instruction', 'Preference', 'Procedure', 'Note', 'Episodic'])(
    'knowledge_type %s (004’s table) is accepted, any info_type string too',
    (knowledgeType) => {
      const loaded = loadKnowledgePack('p.json', {
        pieces: [{ piece_id: 'x', content: 'c', knowledge_type: knowledgeType, info_type: 'lab_notebook' }],
      });
      expect(loaded.failures).toEqual([]);
      expect(loaded.documents[0]?.metadata).toMatchObject({
        knowledge_type: knowledgeType.toLowerCase(),
        info_type: 'lab_notebook',
      });
    },
  );

  it.each([
    ['an API key', 'key sk-proj-abcdefghijklmnop1234'],
    ['a password', 'password: s3cr3t!'],
    ['a token', 'token = abcdefghijkl1234'],
    ['a bearer token', 'Authorization: Bearer abcdefghijklmnopqrstu'],
  ])('security: a piece holding %s is rejected', (_what, content) => {
    const loaded = loadKnowledgePack('p.json', {
      pieces: [{ piece_id: 'x', content, knowledge_type: 'fact', info_type: 'context' }],
    });
    expect(loaded.documents).toEqual([]);
    expect(loaded.failures[0]?.message).toMatch(/^piece rejected: it contains /);
  });
});
