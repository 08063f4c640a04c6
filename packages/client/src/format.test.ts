import { describe, expect, it } from 'vitest';
import { applyFormatter, formatKnowledge } from './format.js';
import type { KnowledgeBundle, ScoredPiece } from './knowledge.js';

const piece = (fields: Partial<ScoredPiece> & Pick<ScoredPiece, 'id' | 'content'>): ScoredPiece => ({
  sourceId: `pack.json#${fields.id}`,
  knowledgeType: 'fact',
  infoType: 'context',
  tags: [],
  entityId: 'user:alice',
  score: 0.5,
  ...fields,
});

const bundle: KnowledgeBundle = {
  query: 'failover',
  namespace: { workspaceId: 'team', entityId: 'user:alice' },
  metadata: { name: 'Alice', languages: ['en', 'de'] },
  globalMetadata: { team: 'Platform SRE' },
  pieces: [
    piece({
      id: 'p-1',
      content: 'Always page the carrier team first.',
      tags: ['on-call'],
      score: 0.9,
      infoType: 'instructions',
    }),
    piece({ id: 'p-2', content: 'Alice maintains the dispatcher.', score: 0.4 }),
  ],
  graph: [
    {
      id: 'Alice MAINTAINS dispatcher',
      from: 'Alice',
      relation: 'MAINTAINS',
      to: 'dispatcher',
      depth: 1,
      score: 1,
    },
  ],
  items: [],
};

describe('formatKnowledge', () => {
  it('writes the four sections in order', () => {
    expect(formatKnowledge(bundle)).toBe(
      [
        '[Metadata]\nname: Alice\nlanguages: ["en","de"]',
        '[Global Metadata]\nteam: Platform SRE',
        '[Knowledge]\n- Always page the carrier team first.\n- Alice maintains the dispatcher.',
        '[Relationships]\n- Alice MAINTAINS dispatcher',
      ].join('\n\n'),
    );
  });

  it('takes other delimiters, and shows tags and scores when asked', () => {
    const text = formatKnowledge(bundle, { delimiters: ['## ', ''], tags: true, scores: true });
    expect(text).toContain(
      '## Knowledge\n- Always page the carrier team first. [on-call] (0.90)\n- Alice maintains the dispatcher. (0.40)',
    );
    expect(text).toContain('## Relationships\n- Alice MAINTAINS dispatcher (1.00)');
  });

  it('leaves out empty sections', () => {
    const bare = { ...bundle, metadata: null, globalMetadata: {}, graph: [] };
    expect(formatKnowledge(bare)).toBe(
      '[Knowledge]\n- Always page the carrier team first.\n- Alice maintains the dispatcher.',
    );
  });
});

describe('applyFormatter', () => {
  it('fills a template per piece', () => {
    expect(applyFormatter('* ({knowledge_type}) {content} #{id}', bundle.pieces, bundle)).toBe(
      '* (fact) Always page the carrier team first. #p-1\n* (fact) Alice maintains the dispatcher. #p-2',
    );
  });

  it('calls a function with the pieces and the bundle', () => {
    expect(
      applyFormatter(
        (pieces, all) => `${pieces.length} for ${all.namespace.entityId}`,
        bundle.pieces,
        bundle,
      ),
    ).toBe('2 for user:alice');
  });
});
