import { describe, expect, it } from 'vitest';
import type { KnowledgeBundle } from './knowledge.js';
import { routeKnowledge } from './route.js';
import { DOCUMENT_BUNDLE, fact, piece } from './test-fixtures.js';

/** What retrieval gives for the knowledge design's trace: Alice's profile, the LES-RANS piece, its edge. */
const TRACE: KnowledgeBundle = {
  query: 'Set up an LES simulation for jet noise',
  namespace: { workspaceId: 'cfd', entityId: 'user:alice' },
  metadata: { specialization: 'turbomachinery', team: 'aero' },
  globalMetadata: {},
  pieces: [
    piece({
      id: 'les-rans-init',
      content: 'Initialize transient LES from converged RANS -- cuts spin-up by ~40%',
      knowledgeType: 'procedure',
      infoType: 'instructions',
      tags: ['les', 'initialization', 'rans'],
      score: 0.85,
    }),
  ],
  graph: [fact({ relation: 'SPECIALIZES_IN', target: 'Technique:les', pieceId: 'les-rans-init' })],
  items: [],
};

describe('routeKnowledge (004 KnowledgeProvider routing)', () => {
  it('gives 004’s step 7: the profile as user_profile, the procedure as instructions', () => {
    const provided = routeKnowledge(TRACE);
    expect(Object.keys(provided)).toEqual(['instructions', 'user_profile']);
    // The trace's "user_profile": "specialization: turbomachinery\nteam: aero"
    expect(provided.user_profile).toBe('specialization: turbomachinery\nteam: aero');
    // The trace's "instructions": "[procedure] Initialize transient LES from converged RANS..."
    expect(provided.instructions).toBe(
      '[procedure] Initialize transient LES from converged RANS -- cuts spin-up by ~40%\n' +
        '  Tags: les, initialization, rans\n\nSPECIALIZES_IN → Technique:les',
    );
  });

  it('routes every source by the table', () => {
    const provided = routeKnowledge({
      ...DOCUMENT_BUNDLE,
      pieces: [
        ...DOCUMENT_BUNDLE.pieces,
        piece({
          id: 'skill-1',
          content: 'RANS-to-LES Initialization',
          knowledgeType: 'procedure',
          infoType: 'skills',
        }),
        piece({
          id: 'n-1',
          content: 'Runbook index lives in the wiki.',
          knowledgeType: 'note',
          infoType: 'team_notes',
        }),
      ],
      graph: [
        // linked piece: the piece's info type (skills), wherever the edge starts
        fact({ relation: 'KNOWS', target: 'Technique:rans-to-les', pieceId: 'skill-1' }),
        // from the entity, no piece: user_profile
        fact({ relation: 'SPECIALIZES_IN', target: 'Technique:les', description: 'LES simulation expert' }),
        // elsewhere, no piece: context
        fact({
          source: 'Technique:les',
          relation: 'PART_OF',
          target: 'Topic:turbulence',
          fromEntity: false,
          depth: 2,
          score: 0.5,
        }),
        // a linked piece that is not in the bundle routes as an edge without one
        fact({
          source: 'Team:aero',
          relation: 'OWNS',
          target: 'Case:jn-042',
          fromEntity: false,
          pieceId: 'gone',
        }),
      ],
    });
    expect(provided).toEqual({
      context:
        '[fact] Smagorinsky constant of 0.1 works better than default 0.17\n  Tags: les, smagorinsky\n\n' +
        'Team:aero OWNS → Case:jn-042\nTechnique:les PART_OF → Topic:turbulence',
      instructions:
        '[procedure] Initialize transient LES from converged RANS -- cuts spin-up by ~40%\n  Tags: les, initialization, rans',
      skills: '[procedure] RANS-to-LES Initialization\n\nKNOWS → Technique:rans-to-les',
      team_notes: '[note] Runbook index lives in the wiki.',
      user_profile:
        'specialization: turbomachinery\nteam: aero\n\norganization: NASA\n\nSPECIALIZES_IN → Technique:les (LES simulation expert)',
    });
  });

  it('puts metadata where metadataInfoType says, and writes pieces by a per-type formatter', () => {
    const provided = routeKnowledge(TRACE, {
      metadataInfoType: 'profile',
      formatters: { instructions: '- {content} ({tags})' },
    });
    expect(provided.profile).toBe('specialization: turbomachinery\nteam: aero');
    expect(provided.user_profile).toBeUndefined();
    expect(provided.instructions).toBe(
      '- Initialize transient LES from converged RANS -- cuts spin-up by ~40% (les, initialization, rans)\n\n' +
        'SPECIALIZES_IN → Technique:les',
    );
  });

  it('is byte-identical for the same input, in any order', () => {
    const reversed = {
      ...DOCUMENT_BUNDLE,
      pieces: [...DOCUMENT_BUNDLE.pieces].reverse(),
      graph: [...DOCUMENT_BUNDLE.graph].reverse(),
    };
    expect(JSON.stringify(routeKnowledge(reversed))).toBe(JSON.stringify(routeKnowledge(DOCUMENT_BUNDLE)));
  });

  it('gives nothing for an empty bundle', () => {
    expect(routeKnowledge({ ...TRACE, metadata: null, pieces: [], graph: [] })).toEqual({});
  });
});
