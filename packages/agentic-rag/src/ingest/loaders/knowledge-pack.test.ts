import { describe, expect, it } from 'vitest';
import { LOADERS } from './index.js';
import { loadKnowledgePack, secretIn } from './knowledge-pack.js';

const PACK = {
  metadata: {
    pack_id: 'alice-pack',
    global: { team: 'Platform SRE', timezone: 'Europe/Berlin' },
    entities: { 'user:alice': { name: 'Alice', role: 'on-call lead' } },
  },
  pieces: [
    {
      piece_id: 'p-1',
      content: 'Always page the carrier team before failing over the label service.',
      knowledge_type: 'instruction',
      info_type: 'instructions',
      tags: ['on-call'],
      entity_id: 'user:alice',
      embedding_text: 'failover label service paging carrier team',
    },
    {
      piece_id: 'p-2',
      content: 'Alice maintains the dispatcher.',
      knowledge_type: 'fact',
      info_type: 'context',
    },
    { piece_id: 'p-3', content: 'Prefers Grafana.', knowledge_type: 'mood', info_type: 'user_profile' },
    { piece_id: 'p-4', content: '   ', knowledge_type: 'fact', info_type: 'context' },
    { piece_id: 'p-1', content: 'Duplicate id.', knowledge_type: 'fact', info_type: 'context' },
    {
      piece_id: 'p-5',
      content: 'Deploy key: -----BEGIN OPENSSH PRIVATE KEY----- abc',
      knowledge_type: 'note',
      info_type: 'skills',
    },
    {
      piece_id: 'p-6',
      content: 'Use team_notes as the runbook index.',
      knowledge_type: 'note',
      info_type: 'team_notes',
    },
  ],
  graph: {
    nodes: [
      { id: 'alice', type: 'Person', name: 'Alice' },
      { id: 'dispatcher', type: 'Service', name: 'webhook dispatcher' },
      { id: 'platform', type: 'Team', name: 'Platform SRE' },
    ],
    edges: [
      { source: 'alice', target: 'dispatcher', type: 'MAINTAINS', piece_id: 'p-2' },
      { source: 'alice', target: 'platform', type: 'MEMBER_OF' },
      { source: 'alice', target: 'ghost', type: 'KNOWS' },
      { source: 'alice', target: 'platform', type: 'leads' },
    ],
  },
};

describe('knowledge packs', () => {
  const result = loadKnowledgePack('packs/alice.json', PACK);
  const byId = new Map(result.documents.map((document) => [document.sourcePath, document]));

  it('loads each valid piece as a document with its types, tags, entity and embedding text', () => {
    expect(byId.get('packs/alice.json#p-1')).toMatchObject({
      kind: 'knowledge',
      text: 'Always page the carrier team before failing over the label service.',
      embeddingText: 'failover label service paging carrier team',
      metadata: {
        pack_id: 'alice-pack',
        piece_id: 'p-1',
        knowledge_type: 'instruction',
        info_type: 'instructions',
        tags: ['on-call'],
        entity_id: 'user:alice',
      },
    });
    // A custom info type is accepted as long as it is snake_case.
    expect(byId.get('packs/alice.json#p-6')?.metadata.info_type).toBe('team_notes');
  });

  it('reports each invalid item and skips it while the rest loads', () => {
    expect(result.failures.map((failure) => [failure.sourcePath, failure.message])).toEqual([
      ['packs/alice.json#p-3', expect.stringMatching(/^invalid piece: knowledge_type: /)],
      ['packs/alice.json#p-4', 'invalid piece: content: content is empty'],
      ['packs/alice.json#p-1', 'duplicate piece_id "p-1"'],
      ['packs/alice.json#p-5', expect.stringMatching(/^piece rejected: it contains a private key/)],
      ['packs/alice.json#graph.edges[2]', 'edge alice → ghost names a node the pack does not have'],
      [
        'packs/alice.json#graph.edges[3]',
        expect.stringMatching(/^invalid edge: type: edge type must be UPPER_SNAKE/),
      ],
    ]);
    expect([...byId.keys()].sort()).toEqual([
      'packs/alice.json#global',
      'packs/alice.json#graph',
      'packs/alice.json#p-1',
      'packs/alice.json#p-2',
      'packs/alice.json#p-6',
      'packs/alice.json#profile/user:alice',
    ]);
  });

  it('files profiles and global metadata as documents of their own', () => {
    expect(byId.get('packs/alice.json#profile/user:alice')).toMatchObject({
      text: 'name: Alice\nrole: on-call lead',
      metadata: { entity_id: 'user:alice', info_type: 'user_profile' },
    });
    expect(byId.get('packs/alice.json#global')?.text).toBe('team: Platform SRE\ntimezone: Europe/Berlin');
  });

  it('states graph edges: a piece’s own edges with the piece, the rest with the graph document', () => {
    expect(byId.get('packs/alice.json#p-2')?.facts?.relations).toEqual([
      {
        from: { type: 'Person', name: 'Alice' },
        to: { type: 'Service', name: 'webhook dispatcher' },
        type: 'MAINTAINS',
        weight: 1,
      },
    ]);
    const graph = byId.get('packs/alice.json#graph')!;
    expect(graph.text).toBe(
      'Alice (Person)\nwebhook dispatcher (Service)\nPlatform SRE (Team)\nAlice MEMBER_OF Platform SRE',
    );
    expect(graph.facts?.relations.map((relation) => relation.type)).toEqual(['MEMBER_OF']);
    for (const entity of graph.facts!.entities)
      expect(graph.text.slice(entity.mentions[0]!.start, entity.mentions[0]!.end)).toBe(
        `${entity.name} (${entity.type})`,
      );
  });

  it('is what a .json file shaped like a pack loads as; other JSON stays records', () => {
    const loaded = LOADERS['.json']!({ sourcePath: 'packs/alice.json', text: JSON.stringify(PACK) });
    expect(loaded.documents.map((document) => document.kind)).toContain('knowledge');
    const records = LOADERS['.json']!({ sourcePath: 'faq.json', text: '[{"id": "a", "text": "hello"}]' });
    expect(records.documents[0]?.kind).toBe('json-record');
  });

  it('refuses a file that is not a pack at all, with the reason', () => {
    expect(loadKnowledgePack('bad.json', { pieces: 'nope' }).failures).toEqual([
      {
        sourcePath: 'bad.json',
        code: 'PARSE_FAILED',
        message: expect.stringMatching(/^not a knowledge pack: pieces: /),
      },
    ]);
  });

  it.each([
    ['my password is hunter2', 'contains a password'],
    ['password: s3cr3t!', 'contains a password'],
    ['Authorization: Bearer abcdefghijklmnopqrstu', 'contains a bearer token'],
    ['key sk-proj-abcdefghijklmnop1234', 'contains an API key'],
    ['AWS AKIAABCDEFGHIJKLMNOP', 'contains an API key'],
    ['api_key = "abcdefghijkl1234"', 'contains an API key'],
    ['-----BEGIN RSA PRIVATE KEY-----', 'contains a private key'],
  ])('finds the secret in %j', (text, reason) => {
    expect(secretIn(text)).toBe(reason);
  });

  it('refuses secrets in profiles, global metadata and node properties too, and duplicate node ids', () => {
    const loaded = loadKnowledgePack('p.json', {
      metadata: {
        global: { vault: 'api_key = abcdefghijkl1234' },
        entities: { 'user:eve': { name: 'Eve', password: 'hunter22!' }, 'user:ann': { name: 'Ann' } },
      },
      pieces: [],
      graph: {
        nodes: [
          { id: 'db', type: 'Service', properties: { dsn: 'password: s3cr3t-value' } },
          { id: 'ann', type: 'Person' },
          { id: 'ann', type: 'Person', name: 'Ann again' },
        ],
        edges: [],
      },
    });
    expect(loaded.failures.map((failure) => [failure.sourcePath, failure.message])).toEqual([
      ['p.json#graph.nodes[0]', 'node rejected: its properties contain a password'],
      ['p.json#graph.nodes[2]', 'duplicate node id "ann"'],
      ['p.json#profile/user:eve', 'profile rejected: it contains a password'],
      ['p.json#global', 'global metadata rejected: it contains an API key'],
    ]);
    expect(loaded.documents.map((document) => document.sourcePath)).toEqual([
      'p.json#profile/user:ann',
      'p.json#graph',
    ]);
  });

  it.each([
    'Rotate the password every 90 days.',
    'Tokens expire after an hour.',
    'The API key lives in Vault.',
    'A password is needed to log in.',
  ])('lets %j through: it talks about secrets without holding one', (text) => {
    expect(secretIn(text)).toBeNull();
  });
});
