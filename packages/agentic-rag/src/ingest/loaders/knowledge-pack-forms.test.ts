import { describe, expect, it } from 'vitest';
import { loadKnowledgePack } from './knowledge-pack.js';

/** The canonical form of every part, its failures, and the older form beside it (docs/knowledge-packs.md). */
describe('knowledge packs in 004’s form', () => {
  const pieceOf = (id: string, extra: Record<string, unknown> = {}) => ({
    piece_id: id,
    content: `Content of ${id}.`,
    knowledge_type: 'fact',
    info_type: 'context',
    ...extra,
  });
  const failures = (value: unknown) =>
    loadKnowledgePack('p.json', value).failures.map((failure) => [
      failure.sourcePath,
      failure.code,
      failure.message,
    ]);

  it('accepts knowledge types as 004’s table writes them (Fact, Procedure)', () => {
    const loaded = loadKnowledgePack('p.json', {
      pieces: [pieceOf('a', { knowledge_type: 'Procedure' }), pieceOf('b', { knowledge_type: 'Episodic' })],
    });
    expect(loaded.failures).toEqual([]);
    expect(loaded.documents.map((document) => document.metadata.knowledge_type)).toEqual([
      'procedure',
      'episodic',
    ]);
  });

  it('takes metadata keyed by entity id, with or without entity_id, or as a list; global by entity_type', () => {
    const loaded = loadKnowledgePack('p.json', {
      metadata: {
        'user:alice': { entity_type: 'user', properties: { team: 'aero' } },
        'team:aero': { entity_id: 'team:aero', entity_type: 'team' },
        shared: { entity_type: 'global', properties: { organization: 'NASA' } },
      },
      pieces: [],
    });
    expect(loaded.failures).toEqual([]);
    const byPath = new Map(loaded.documents.map((document) => [document.sourcePath, document]));
    expect(byPath.get('p.json#profile/user:alice')).toMatchObject({
      text: 'team: aero',
      metadata: {
        entity_id: 'user:alice',
        entity_type: 'user',
        info_type: 'user_profile',
        profile: { team: 'aero' },
      },
    });
    expect(byPath.get('p.json#profile/team:aero')?.text).toBe('team:aero (team)');
    expect(byPath.get('p.json#global')?.metadata.global).toEqual({ organization: 'NASA' });

    const listed = loadKnowledgePack('p.json', {
      metadata: [{ entity_id: 'user:bob', entity_type: 'user', properties: { team: 'cfd' } }],
      pieces: [],
    });
    expect(listed.documents.map((document) => document.text)).toEqual(['team: cfd']);
  });

  it('reports every metadata entry it cannot take, instead of dropping it', () => {
    expect(
      failures({
        metadata: {
          'user:alice': { properties: { team: 'aero' } },
          'user:bob': { entity_id: 'user:robert', entity_type: 'user' },
          'user:eve': { entity_type: 'user', properties: {}, extra: 1 },
          owner: 'platform',
          'user:ann': { entity_type: 'user', properties: { api_key: 'api_key = abcdefghijkl1234' } },
        },
        pieces: [],
      }),
    ).toEqual([
      [
        'p.json#metadata.user:alice',
        'INVALID_INPUT',
        expect.stringMatching(/^invalid entity metadata: entity_type: /),
      ],
      [
        'p.json#metadata.user:bob',
        'INVALID_INPUT',
        'invalid entity metadata: entity_id "user:robert" differs from its key "user:bob"',
      ],
      [
        'p.json#metadata.user:eve',
        'INVALID_INPUT',
        expect.stringMatching(/^invalid entity metadata: .*extra/),
      ],
      ['p.json#metadata.owner', 'INVALID_INPUT', expect.stringMatching(/^invalid entity metadata: /)],
      ['p.json#profile/user:ann', 'INVALID_INPUT', 'profile rejected: it contains an API key'],
    ]);
    expect(
      failures({
        metadata: [
          { entity_type: 'user' },
          { entity_id: 'user:x', entity_type: 'user' },
          { entity_id: 'user:x', entity_type: 'user' },
        ],
        pieces: [],
      }),
    ).toEqual([
      ['p.json#metadata[0]', 'INVALID_INPUT', 'invalid entity metadata: entity_id: required'],
      ['p.json#metadata[2]', 'INVALID_INPUT', 'duplicate entity metadata for "user:x"'],
    ]);
  });

  it('names graph nodes by their typed id, keeps the label, and links edges to pieces through properties', () => {
    const loaded = loadKnowledgePack('p.json', {
      pieces: [pieceOf('les-rans-init')],
      graph: {
        nodes: [
          { node_id: 'user:alice', node_type: 'user', label: 'Alice' },
          { node_id: 'technique:dynamic-smagorinsky', node_type: 'technique', label: 'Dynamic Smagorinsky' },
          { node_id: 'case:jn-042', node_type: 'case' },
        ],
        edges: [
          {
            source_id: 'user:alice',
            target_id: 'technique:dynamic-smagorinsky',
            edge_type: 'USES',
            properties: { piece_id: 'les-rans-init', description: '15% better spectral agreement on JN-042' },
          },
          {
            source_id: 'technique:dynamic-smagorinsky',
            target_id: 'case:jn-042',
            edge_type: 'TESTED_ON',
            properties: { weight: 2 },
          },
        ],
      },
    });
    expect(loaded.failures).toEqual([]);
    const graph = loaded.documents.find((document) => document.sourcePath === 'p.json#graph')!;
    expect(graph.metadata.nodes).toEqual([
      {
        node_id: 'user:alice',
        graph_id: 'User:alice',
        typed_id: 'User:alice',
        node_type: 'User',
        label: 'Alice',
      },
      {
        node_id: 'technique:dynamic-smagorinsky',
        graph_id: 'Technique:dynamic smagorinsky',
        typed_id: 'Technique:dynamic-smagorinsky',
        node_type: 'Technique',
        label: 'Dynamic Smagorinsky',
      },
      { node_id: 'case:jn-042', graph_id: 'Case:jn 042', typed_id: 'Case:jn-042', node_type: 'Case' },
    ]);
    expect(graph.metadata.edges).toEqual([
      {
        source_id: 'user:alice',
        target_id: 'technique:dynamic-smagorinsky',
        from: 'User:alice',
        to: 'Technique:dynamic smagorinsky',
        edge_type: 'USES',
        properties: { description: '15% better spectral agreement on JN-042', piece_id: 'les-rans-init' },
      },
      {
        source_id: 'technique:dynamic-smagorinsky',
        target_id: 'case:jn-042',
        from: 'Technique:dynamic smagorinsky',
        to: 'Case:jn 042',
        edge_type: 'TESTED_ON',
        properties: {},
      },
    ]);
    expect(graph.facts?.relations).toEqual([
      {
        from: { type: 'Technique', name: 'dynamic-smagorinsky' },
        to: { type: 'Case', name: 'jn-042' },
        type: 'TESTED_ON',
        weight: 2,
      },
    ]);
    const piece = loaded.documents.find((document) => document.sourcePath === 'p.json#les-rans-init')!;
    expect(piece.facts?.relations.map((relation) => relation.type)).toEqual(['USES']);
  });

  it('reports each node and edge it cannot take, with where and why', () => {
    expect(
      failures({
        pieces: [pieceOf('p-1')],
        graph: {
          nodes: [
            { node_id: 'user:alice', node_type: 'user', label: 'Alice' },
            { node_type: 'technique', label: 'LES' },
            { node_id: 'user:alice', node_type: 'user' },
            { node_id: 'db', node_type: 'service', properties: { dsn: 'password: s3cr3t-value' } },
          ],
          edges: [
            { source_id: 'user:alice', target_id: 'technique:les', edge_type: 'USES' },
            { source_id: 'user:alice', target_id: 'user:alice', edge_type: 'knows' },
            {
              source_id: 'user:alice',
              target_id: 'user:alice',
              edge_type: 'KNOWS',
              properties: { piece_id: 'p-9' },
            },
            { source_id: 'user:alice', target_id: 'user:alice', edge_type: 'KNOWS', weight: 2 },
          ],
        },
      }),
    ).toEqual([
      ['p.json#graph.nodes[1]', 'INVALID_INPUT', expect.stringMatching(/^invalid node: node_id: /)],
      ['p.json#graph.nodes[2]', 'INVALID_INPUT', 'duplicate node id "user:alice"'],
      ['p.json#graph.nodes[3]', 'INVALID_INPUT', 'node rejected: its properties contain a password'],
      [
        'p.json#graph.edges[0]',
        'INVALID_INPUT',
        'edge user:alice → technique:les names a node the pack does not have',
      ],
      [
        'p.json#graph.edges[1]',
        'INVALID_INPUT',
        expect.stringMatching(/^invalid edge: edge_type: edge type must be UPPER_SNAKE/),
      ],
      ['p.json#graph.edges[2]', 'INVALID_INPUT', 'edge names piece "p-9", which is not loaded'],
      ['p.json#graph.edges[3]', 'INVALID_INPUT', expect.stringMatching(/^invalid edge: .*weight/)],
    ]);
  });

  it('refuses unknown sections and unknown graph keys instead of ignoring them', () => {
    expect(failures({ pieces: [], extras: {} })).toEqual([
      ['p.json', 'PARSE_FAILED', expect.stringMatching(/^not a knowledge pack: /)],
    ]);
    expect(failures({ pieces: [], graph: { nodes: [], links: [] } })).toEqual([
      ['p.json', 'PARSE_FAILED', expect.stringMatching(/^not a knowledge pack: graph/)],
    ]);
  });
});
