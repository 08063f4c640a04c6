import { describe, expect, it } from 'vitest';
import { loadKnowledgePack } from '../ingest/index.js';
import { structureByRules } from './rule-based.js';

const NOTES = `I am Alice, the on-call SRE lead.

Always page the carrier team before failing over the label service.

Alice prefers Grafana dashboards over raw queries.

To restart the webhook dispatcher:
1. Drain the queue.
2. Restart the pods.

Last week the replica lag alert fired twice.

The dispatcher runs in eu-west-1.

Always page the carrier team before failing over the label service.`;

describe('structureByRules', () => {
  const pack = structureByRules(NOTES, { entityId: 'user:alice', source: 'alice-notes' });
  const pieces = pack.pieces as Array<{
    piece_id: string;
    content: string;
    knowledge_type: string;
    info_type: string;
    entity_id: string;
  }>;

  it('types each paragraph by its cue words and files it under an info type', () => {
    expect(pieces.map((piece) => [piece.knowledge_type, piece.info_type])).toEqual([
      ['fact', 'user_profile'],
      ['instruction', 'instructions'],
      ['preference', 'user_profile'],
      ['procedure', 'skills'],
      ['episodic', 'context'],
      ['fact', 'context'],
    ]);
    expect(pieces.every((piece) => piece.entity_id === 'user:alice')).toBe(true);
  });

  it('keeps a list with its lead-in, drops a repeated paragraph, and gives stable ids', () => {
    expect(pieces[3]!.content).toBe(
      'To restart the webhook dispatcher:\n1. Drain the queue.\n2. Restart the pods.',
    );
    expect(pieces).toHaveLength(6);
    expect(structureByRules(NOTES, { entityId: 'user:alice', source: 'alice-notes' }).pieces).toEqual(
      pack.pieces,
    );
    expect(pieces[0]!.piece_id).toMatch(/^p-[0-9a-f]{12}$/);
  });

  it('makes a pack that loads without a single failure', () => {
    expect(loadKnowledgePack('k.json', pack).failures).toEqual([]);
  });
});
