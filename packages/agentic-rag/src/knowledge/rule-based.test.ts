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
      ['procedure', 'instructions'],
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

  // The knowledge design's classification table, its example for each knowledge type.
  it.each([
    ['Smagorinsky constant of 0.1 works better than default 0.17', 'fact', 'context'],
    ['Always check mesh quality before CHT runs', 'instruction', 'instructions'],
    ['Prefer second-order discretization for accuracy', 'preference', 'user_profile'],
    ['Step 1: Initialize with steady-state. Step 2: Switch to transient...', 'procedure', 'instructions'],
    ['Residuals showed unexpected oscillation around iteration 500', 'note', 'context'],
    ['On case JN-042 we tried dynamic Smagorinsky and saw 15% improvement', 'episodic', 'context'],
    // The design's step-by-step trace: the expert's words become a procedure the agent follows.
    ['Initialize LES from converged RANS -- cuts spin-up by ~40%', 'procedure', 'instructions'],
    // "a procedure describing how a past experiment was done is context"
    ['On case JN-042 we ran it in two steps:\n1. RANS\n2. LES from the RANS field', 'procedure', 'context'],
  ])('files 004’s example %j as %s / %s', (text, knowledgeType, infoType) => {
    const [only] = structureByRules(text, { source: 'doc' }).pieces as Array<Record<string, unknown>>;
    expect([only?.knowledge_type, only?.info_type]).toEqual([knowledgeType, infoType]);
  });

  it('tags a piece with the acronyms it names', () => {
    const [only] = structureByRules('Initialize LES from converged RANS -- cuts spin-up by ~40%', {
      source: 'doc',
    }).pieces as Array<{ tags: string[] }>;
    expect(only?.tags).toEqual(['les', 'rans']);
  });

  it('makes a pack that loads without a single failure', () => {
    expect(loadKnowledgePack('k.json', pack).failures).toEqual([]);
  });
});
