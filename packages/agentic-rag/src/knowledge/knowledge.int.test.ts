import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { NumberedEntityExtractor, OfflineEntityExtractor, PostgresGraphStore } from '../graph/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../llm/index.js';
import { createRetriever } from '../retrieve/index.js';
import { loadConfig } from '../config/index.js';
import { CorpusStore } from '../store/index.js';
import { structureKnowledge } from './structure.js';

const VALID = {
  metadata: { entities: { 'user:alice': { name: 'Alice' } } },
  pieces: [
    {
      piece_id: 'p-1',
      content: 'Always page the carrier team before failing over the label service.',
      knowledge_type: 'instruction',
      info_type: 'instructions',
      entity_id: 'user:alice',
    },
    {
      piece_id: 'p-2',
      content: 'Alice maintains the webhook dispatcher.',
      knowledge_type: 'fact',
      info_type: 'context',
      entity_id: 'user:alice',
    },
  ],
  graph: {
    nodes: [
      { id: 'alice', type: 'Person', name: 'Alice' },
      { id: 'dispatcher', type: 'Service', name: 'webhook dispatcher' },
    ],
    edges: [{ source: 'alice', target: 'dispatcher', type: 'MAINTAINS', piece_id: 'p-2' }],
  },
};

/** Knowledge from free text to searchable pieces, on the real database, a model on a local chat server. */
describe.each(testBackends())('knowledge packs on $name', (backend) => {
  let sql: Sql;
  let chat: ChatServer;
  const replies: string[] = [];
  const ws = uniqueWorkspace('knowledge');

  beforeAll(async () => {
    sql = await backend.open();
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

  const llm = () => new OpenAiChatLlm({ baseUrl: chat.url, model: 'structurer', maxRetries: 0 });

  it('asks the model again after an unusable reply, and records the check-in with secrets redacted', async () => {
    replies.length = 0;
    replies.push(
      'Sure! Here are the pieces:',
      JSON.stringify({ pieces: [{ piece_id: 'x', content: 'c' }] }),
      JSON.stringify(VALID),
    );
    chat.requests.length = 0;
    const text = 'Alice maintains the dispatcher. Her password is hunter2. Always page the carrier team.';
    const result = await structureKnowledge({
      text,
      workspaceId: ws,
      entityId: 'user:alice',
      source: 'alice',
      llm: llm(),
      maxRetries: 2,
      sql,
    });
    expect(result.method).toBe('llm');
    expect(result.pack).toEqual(VALID);
    expect(chat.requests).toHaveLength(3);
    // The second request tells the model what was wrong with the first reply.
    expect(chat.requests[1]!.body?.messages?.at(-1)?.content).toContain('holds no JSON object');
    expect(chat.requests[2]!.body?.messages?.at(-1)?.content).toMatch(/invalid piece: knowledge_type/);
    const checkIn = await sql.query<{
      method: string;
      input: string;
      attempts: number;
      output: { replies: string[] };
    }>('SELECT method, input, attempts, output FROM rag_knowledge_checkins WHERE id = $1', [
      result.checkInId,
    ]);
    expect(checkIn.rows[0]).toMatchObject({ method: 'llm', attempts: 3 });
    expect(checkIn.rows[0]!.input).toBe(
      'Alice maintains the dispatcher. Her password is [REDACTED] Always page the carrier team.',
    );
    expect(checkIn.rows[0]!.output.replies).toHaveLength(3);
  });

  it('gives up with a clear error when every reply is unusable', async () => {
    replies.length = 0;
    replies.push('nope', 'still nope');
    await expect(
      structureKnowledge({ text: 'notes', workspaceId: ws, source: 'bad', llm: llm(), maxRetries: 1, sql }),
    ).rejects.toMatchObject({
      code: 'LLM_REQUEST_REJECTED',
      message: expect.stringContaining('in 2 attempts'),
    });
  });

  it('structures by rules without a model, and the pack ingests into searchable, filterable pieces and graph facts', async () => {
    const { pack, method } = await structureKnowledge({
      text: 'Alice prefers Grafana dashboards over raw queries.\n\nAlways page the carrier team before a failover.\n\nMy password is hunter2.',
      workspaceId: ws,
      entityId: 'user:alice',
      source: 'rules',
      llm: null,
      sql,
    });
    expect(method).toBe('rules');
    const graph = new PostgresGraphStore(sql);
    const embedder = new DeterministicEmbedder();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder,
      maxTokens: 400,
      overlapTokens: 60,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
    });
    const summary = await pipeline.ingestInline(ws, [
      { id: 'knowledge/alice/rules.json', content: JSON.stringify(pack) },
      { id: 'knowledge/alice/llm.json', content: JSON.stringify(VALID) },
    ]);
    expect(summary.failures).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^piece rejected: it contains a password/) }),
    ]);
    expect(summary.documents.added).toBe(2 + 2 + 1 + 1); // rules: 2 pieces; llm: 2 pieces, a profile, the graph

    const retriever = createRetriever(loadConfig({ LOG_LEVEL: 'silent' }), sql, embedder, undefined, graph);
    const instructions = await retriever.retrieve({
      workspaceId: ws,
      query: 'what must happen before a failover',
      k: 5,
      filters: { kind: 'knowledge', entity_id: 'user:alice', info_type: 'instructions' },
    });
    expect(instructions.hits.length).toBeGreaterThan(0);
    for (const hit of instructions.hits) expect(hit.text).toMatch(/^Always page the carrier team/);

    const [alice] = await graph.getEntities({ workspaceId: ws, ids: ['Person:alice'] });
    expect(alice?.name).toBe('Alice');
    const around = await graph.neighbourhood({ workspaceId: ws, seeds: ['Person:alice'], hops: 1 });
    expect(around.edges).toContainEqual(expect.objectContaining({ type: 'MAINTAINS', from: 'Person:alice' }));

    // The pack again without piece p-2: its document and the edge it stated go.
    const edited = { ...VALID, pieces: VALID.pieces.slice(0, 1), graph: { ...VALID.graph, edges: [] } };
    const again = await pipeline.ingestInline(ws, [
      { id: 'knowledge/alice/llm.json', content: JSON.stringify(edited) },
    ]);
    expect(again.documents.removed).toBe(1);
    const left = await sql.query<{ source_path: string }>(
      "SELECT source_path FROM rag_documents WHERE workspace_id = $1 AND source_path LIKE 'knowledge/alice/llm.json#%' ORDER BY 1",
      [ws],
    );
    expect(left.rows.map((row) => row.source_path)).toEqual([
      'knowledge/alice/llm.json#graph',
      'knowledge/alice/llm.json#p-1',
      'knowledge/alice/llm.json#profile/user:alice',
    ]);
    const after = await graph.neighbourhood({ workspaceId: ws, seeds: ['Person:alice'], hops: 1 });
    expect(after.edges.filter((edge) => edge.type === 'MAINTAINS')).toEqual([]);
  });
});
