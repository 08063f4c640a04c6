import type { AddressInfo } from 'node:net';
import { AgenticRagClient, AgenticRagError, formatKnowledge, KnowledgeProvider } from '@agentic-rag/client';
import { loadConfig, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

const PACK = {
  metadata: {
    pack_id: 'platform-team',
    global: { team: 'Platform SRE', escalation: 'page the incident commander after 15 minutes' },
    entities: {
      'user:alice': { name: 'Alice', role: 'on-call lead' },
      'user:bob': { name: 'Bob', role: 'developer' },
    },
  },
  pieces: [
    {
      piece_id: 'a-1',
      content: 'Always page the carrier team before failing over the label service.',
      knowledge_type: 'instruction',
      info_type: 'instructions',
      entity_id: 'user:alice',
      tags: ['on-call'],
    },
    {
      piece_id: 'a-2',
      content: 'Alice maintains the webhook dispatcher and its failover runbook.',
      knowledge_type: 'fact',
      info_type: 'context',
      entity_id: 'user:alice',
    },
    {
      piece_id: 'b-1',
      content: 'Bob never takes failover duty on Fridays.',
      knowledge_type: 'preference',
      info_type: 'user_profile',
      entity_id: 'user:bob',
    },
    {
      piece_id: 's-1',
      content: 'A failover of the label service needs the change freeze lifted first.',
      knowledge_type: 'procedure',
      info_type: 'skills',
    },
  ],
  graph: {
    nodes: [
      { id: 'user:alice', type: 'Person', name: 'Alice' },
      { id: 'dispatcher', type: 'Service', name: 'webhook dispatcher' },
      { id: 'queue', type: 'Service', name: 'delivery queue' },
    ],
    edges: [
      { source: 'user:alice', target: 'dispatcher', type: 'MAINTAINS', piece_id: 'a-2' },
      { source: 'dispatcher', target: 'queue', type: 'DEPENDS_ON' },
    ],
  },
};

/** The TypeScript SDK against the real API server and database. */
describe('@agentic-rag/client', () => {
  let runtime: RagRuntime;
  let baseUrl: string;
  let apiKey: string;
  let close: () => Promise<void>;
  const statuses: number[] = [];
  const ws = uniqueWorkspace('sdk');

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({ ...process.env, AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' });
    runtime = await createRuntime({ config, sql });
    const summary = await runtime.pipeline.ingestInline(ws, [
      { id: 'packs/platform.json', content: JSON.stringify(PACK) },
      {
        id: 'docs/failover.md',
        content: '# Label service failover\n\nFail over the label service with the runbook.\n',
      },
    ]);
    expect(summary.failures).toEqual([]);
    const access = await serviceWithAdmin(runtime);
    apiKey = access.key;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => close());

  const client = () =>
    new AgenticRagClient({
      baseUrl,
      workspaceId: ws,
      apiKey,
      // Observes what the real server answered; the request goes through unchanged.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });

  it('asks GraphQL: ragAnswer with citations, search with document metadata and mentions', async () => {
    const sdk = client();
    const answer = await sdk.ragAnswer({ query: 'What must happen before failing over the label service?' });
    expect(answer.refused).toBe(false);
    expect(answer.citations.length).toBeGreaterThan(0);
    const search = await sdk.search({
      query: 'who maintains the webhook dispatcher',
      k: 3,
      filters: { kind: 'knowledge' },
    });
    const piece = search.hits.find((hit) => hit.documentMetadata?.piece_id === 'a-2');
    expect(piece?.mentions).toEqual(expect.arrayContaining(['Person:alice']));
  });

  it('revalidates REST answers with their ETag', async () => {
    const sdk = client();
    statuses.length = 0;
    const first = await sdk.semanticSearch({ query: 'failover of the label service' });
    const second = await sdk.semanticSearch({ query: 'failover of the label service' });
    expect(second).toEqual(first);
    expect(statuses).toEqual([200, 304]);
  });

  it('throws AgenticRagError with the service’s code', async () => {
    const sdk = client();
    await expect(sdk.semanticSearch({ query: 'ab' })).rejects.toMatchObject({
      name: 'AgenticRagError',
      // the REST contract's validation code (docs/rest-contract.md)
      code: 'INVALID_PARAMETER',
      status: 400,
      message: 'query must be at least 3 characters',
    });
    await expect(sdk.search({ query: 'x', k: 99 })).rejects.toBeInstanceOf(AgenticRagError);
    await expect(
      new AgenticRagClient({ baseUrl: 'http://127.0.0.1:1' }).ragAnswer({ query: 'hi', workspaceId: ws }),
    ).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
  });

  it('retrieves an entity’s knowledge: profile, global metadata, its own and shared pieces, the graph around it', async () => {
    const provider = new KnowledgeProvider({
      client: client(),
      workspaceId: ws,
      entityId: 'user:alice',
      topK: 5,
    });
    const bundle = await provider.retrieve('failover of the label service');
    expect(bundle.namespace).toEqual({ workspaceId: ws, entityId: 'user:alice' });
    expect(bundle.metadata).toEqual({ name: 'Alice', role: 'on-call lead' });
    expect(bundle.globalMetadata).toEqual(PACK.metadata.global);
    const ids = bundle.pieces.map((piece) => piece.id);
    expect(ids).toEqual(expect.arrayContaining(['a-1', 'a-2', 's-1']));
    expect(ids).not.toContain('b-1');
    expect(bundle.pieces.find((piece) => piece.id === 'a-1')).toMatchObject({
      knowledgeType: 'instruction',
      infoType: 'instructions',
      tags: ['on-call'],
      entityId: 'user:alice',
    });
    expect(bundle.graph).toContainEqual({
      id: 'Person:Alice MAINTAINS Service:webhook dispatcher',
      source: 'Person:Alice',
      relation: 'MAINTAINS',
      target: 'Service:webhook dispatcher',
      depth: 1,
      score: 1,
      pieceId: 'a-2',
      description: null,
      fromEntity: true,
    });
    expect(bundle.graph).toContainEqual(
      expect.objectContaining({
        relation: 'DEPENDS_ON',
        depth: 2,
        score: 0.5,
        pieceId: null,
        fromEntity: false,
      }),
    );
    // One ordering, whatever the kind: score descending, then id.
    const order = bundle.items.map((item) => [-item.score, item.id] as const);
    expect(order).toEqual(
      [...order].sort((left, right) => left[0] - right[0] || (left[1] < right[1] ? -1 : 1)),
    );
    expect(formatKnowledge(bundle)).toMatch(
      /^\[Metadata\]\nname: Alice\nrole: on-call lead\n\n\[Global Metadata\]/,
    );
  });

  it('provides text per info type, formatted by template or function', async () => {
    const provider = new KnowledgeProvider({
      client: client(),
      workspaceId: ws,
      entityId: 'user:bob',
      formatters: { user_profile: 'Bob: {content}', skills: (pieces) => `${pieces.length} procedure(s)` },
    });
    const provided = await provider.provide('failover duty');
    // Routing as docs/knowledge-packs.md has it: Bob's metadata (then the global metadata) and his
    // preference to user_profile.
    expect(provided.user_profile).toBe(
      'name: Bob\nrole: developer\n\nescalation: page the incident commander after 15 minutes\nteam: Platform SRE\n\n' +
        'Bob: Bob never takes failover duty on Fridays.',
    );
    expect(provided.skills).toBe('1 procedure(s)');
    expect(provided.instructions).toBeUndefined();
  });

  it('routes an entity’s graph: an edge linking a piece goes with the piece, other edges to context', async () => {
    const provider = new KnowledgeProvider({
      client: client(),
      workspaceId: ws,
      entityId: 'user:alice',
      topK: 5,
    });
    const provided = await provider.provide('who maintains the webhook dispatcher');
    expect(provided.context).toBe(
      '[fact] Alice maintains the webhook dispatcher and its failover runbook.\n\n' +
        // relationships by (relation type, target)
        'Service:webhook dispatcher DEPENDS_ON → Service:delivery queue\nMAINTAINS → Service:webhook dispatcher',
    );
    expect(provided.user_profile).toMatch(/^name: Alice\nrole: on-call lead\n\nescalation: /);
  });
});
