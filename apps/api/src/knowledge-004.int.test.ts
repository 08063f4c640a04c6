import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { AgenticRagClient, formatKnowledge, KnowledgeProvider } from '@agentic-rag/client';
import { loadConfig, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceWithAdmin } from '../../../test/api.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { createApi } from './server.js';

/**
 * The Knowledge Integration design document (docs/knowledge-packs.md) over the real API: its
 * KnowledgeDataLoader pack, verbatim, ingested through GraphQL, then its step-by-step trace
 * replayed with the SDK's KnowledgeProvider (the query of its step 4, entity user:alice). The
 * loader, the structurers and the formatter's own example are replayed in
 * packages/agentic-rag/src/knowledge/contract-004.int.test.ts and packages/client/src/format.test.ts.
 */
const fixture = (name: string) =>
  readFileSync(
    new URL(`../../../packages/agentic-rag/src/knowledge/fixtures/${name}`, import.meta.url),
    'utf8',
  );

const INGEST = `mutation Ingest($input: IngestInput!) {
  ingestDocuments(input: $input) {
    mode
    summary { documents { added } failures { sourceId code message } }
  }
}`;

describe('004 knowledge integration over the API', () => {
  let runtime: RagRuntime;
  let client: AgenticRagClient;
  let close: () => Promise<void>;
  const ws = uniqueWorkspace('k004');
  const QUERY = 'Set up an LES simulation for jet noise';

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({ ...process.env, AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' });
    runtime = await createRuntime({ config, sql });
    const access = await serviceWithAdmin(runtime);
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    client = new AgenticRagClient({ baseUrl, workspaceId: ws, apiKey: access.key });
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => close());

  it('ingests the document’s pack whole through GraphQL: piece, profile and graph, no failure', async () => {
    const answer = await client.graphql<{
      ingestDocuments: { mode: string; summary: { documents: { added: number }; failures: unknown[] } };
    }>(INGEST, {
      input: {
        workspaceId: ws,
        documents: [{ id: 'packs/les-rans.json', content: fixture('004-data-loader-pack.json') }],
      },
    });
    expect(answer.ingestDocuments.summary.failures).toEqual([]);
    // the piece, Alice's profile, the graph
    expect(answer.ingestDocuments.summary.documents.added).toBe(3);
    const expansion = await client.expandGraph(['User:alice'], { workspaceId: ws, depth: 1 });
    expect(expansion.edges).toEqual([
      expect.objectContaining({ from: 'User:alice', to: 'Technique:les', type: 'SPECIALIZES_IN' }),
    ]);
  });

  it('replays steps 5–6: metadata, the piece, and the graph walk from user:alice', async () => {
    const provider = new KnowledgeProvider({ client, workspaceId: ws, entityId: 'user:alice' });
    const bundle = await provider.retrieve(QUERY);
    expect(bundle.metadata).toEqual({ specialization: 'turbomachinery', team: 'aero' });
    expect(bundle.globalMetadata).toEqual({});
    expect(bundle.pieces).toEqual([
      {
        id: 'les-rans-init',
        sourceId: 'packs/les-rans.json#les-rans-init',
        content: 'Initialize transient LES from converged RANS -- cuts spin-up by ~40%',
        knowledgeType: 'procedure',
        infoType: 'instructions',
        tags: ['les', 'initialization', 'rans'],
        entityId: 'user:alice',
        // found by search and through its edge at depth 1: the higher score, 1.0/1, is kept
        score: 1,
      },
    ]);
    expect(bundle.graph).toEqual([
      {
        id: 'User:alice SPECIALIZES_IN Technique:les',
        source: 'User:alice',
        relation: 'SPECIALIZES_IN',
        target: 'Technique:les',
        depth: 1,
        score: 1,
        pieceId: 'les-rans-init',
        description: null,
        fromEntity: true,
      },
    ]);
    expect(formatKnowledge(bundle)).toBe(
      '[Metadata]\nspecialization: turbomachinery\nteam: aero\n\n' +
        '[Knowledge]\n[procedure] Initialize transient LES from converged RANS -- cuts spin-up by ~40%\n' +
        '  Tags: les, initialization, rans\n\n' +
        '[Relationships]\nSPECIALIZES_IN → Technique:les',
    );
  });

  it('replays step 7: provide() gives user_profile and instructions as the document shows', async () => {
    const provider = new KnowledgeProvider({ client, workspaceId: ws, entityId: 'user:alice' });
    const provided = await provider.provide(QUERY);
    expect(Object.keys(provided)).toEqual(['instructions', 'user_profile']);
    expect(provided.user_profile).toBe('specialization: turbomachinery\nteam: aero');
    expect(provided.instructions).toMatch(/^\[procedure\] Initialize transient LES from converged RANS/);
    expect(provided.instructions).toBe(
      '[procedure] Initialize transient LES from converged RANS -- cuts spin-up by ~40%\n' +
        '  Tags: les, initialization, rans\n\nSPECIALIZES_IN → Technique:les',
    );
    // Same input, same bytes.
    expect(JSON.stringify(await provider.provide(QUERY))).toBe(JSON.stringify(provided));
  });

  it('with an empty query searches no pieces, yet the profile and the graph (and the piece it links) come', async () => {
    const provider = new KnowledgeProvider({ client, workspaceId: ws, entityId: 'user:alice' });
    const bundle = await provider.retrieve('');
    // reached only through the edge: scored 1/depth, read by its document id
    expect(bundle.pieces.map((piece) => [piece.id, piece.score, piece.content])).toEqual([
      ['les-rans-init', 1, 'Initialize transient LES from converged RANS -- cuts spin-up by ~40%'],
    ]);
    expect(await provider.provide('')).toEqual(await provider.provide(QUERY));
  });

  it('reads a long linked piece back whole, once, from its overlapping chunks', async () => {
    const content = Array.from(
      { length: 150 },
      (_, index) =>
        `Step ${index + 1} of the mesh study sets refinement level ${index % 7} near wall ${index}.`,
    ).join(' ');
    const pack = {
      metadata: { 'user:carol': { entity_type: 'user', properties: { team: 'mesh' } } },
      pieces: [{ piece_id: 'mesh-study', content, knowledge_type: 'Procedure', info_type: 'skills' }],
      graph: {
        nodes: [
          { node_id: 'user:carol', node_type: 'user', label: 'Carol' },
          { node_id: 'technique:mesh-study', node_type: 'technique' },
        ],
        edges: [
          {
            source_id: 'user:carol',
            target_id: 'technique:mesh-study',
            edge_type: 'RAN',
            properties: { piece_id: 'mesh-study', description: 'wall refinement' },
          },
        ],
      },
    };
    const answer = await client.graphql<{ ingestDocuments: { summary: { failures: unknown[] } } }>(INGEST, {
      input: { workspaceId: ws, documents: [{ id: 'packs/carol.json', content: JSON.stringify(pack) }] },
    });
    expect(answer.ingestDocuments.summary.failures).toEqual([]);
    const chunks = await client.graphql<{ document: { chunks: unknown[] } }>(
      'query($ws: ID!) { document(workspaceId: $ws, id: "packs/carol.json#mesh-study") { chunks { text } } }',
      { ws },
    );
    expect(chunks.document.chunks.length).toBeGreaterThan(1);
    const provider = new KnowledgeProvider({ client, workspaceId: ws, entityId: 'user:carol' });
    const provided = await provider.provide('');
    expect(provided).toEqual({
      skills: `[procedure] ${content}\n\nRAN → Technique:mesh-study (wall refinement)`,
      user_profile: 'team: mesh',
    });
  });

  it('puts the metadata where metadataInfoType says', async () => {
    const provider = new KnowledgeProvider({
      client,
      workspaceId: ws,
      entityId: 'user:alice',
      metadataInfoType: 'expert_profile',
    });
    const provided = await provider.provide(QUERY);
    expect(provided.expert_profile).toBe('specialization: turbomachinery\nteam: aero');
    expect(provided.user_profile).toBeUndefined();
  });
});
