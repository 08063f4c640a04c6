import type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';

/** Bundles for the formatter's and the router's unit tests. */

export const piece = (fields: Partial<ScoredPiece> & Pick<ScoredPiece, 'id' | 'content'>): ScoredPiece => ({
  sourceId: `pack.json#${fields.id}`,
  knowledgeType: 'fact',
  infoType: 'context',
  tags: [],
  entityId: 'user:alice',
  score: 0.5,
  ...fields,
});

export const fact = (fields: Partial<GraphFact> & Pick<GraphFact, 'relation' | 'target'>): GraphFact => ({
  source: 'User:alice',
  depth: 1,
  score: 1,
  pieceId: null,
  description: null,
  fromEntity: true,
  ...fields,
  id: `${fields.source ?? 'User:alice'} ${fields.relation} ${fields.target}`,
});

/**
 * The bundle behind the knowledge design's "Output structure" example (docs/knowledge-packs.md),
 * given out of order: the formatter sorts metadata keys, pieces by (−score, id) and relationships
 * by (relation, target) itself.
 */
export const DOCUMENT_BUNDLE: KnowledgeBundle = {
  query: 'Set up an LES simulation for jet noise',
  namespace: { workspaceId: 'cfd', entityId: 'user:alice' },
  metadata: { team: 'aero', specialization: 'turbomachinery' },
  globalMetadata: { organization: 'NASA' },
  pieces: [
    piece({
      id: 'les-smagorinsky',
      content: 'Smagorinsky constant of 0.1 works better than default 0.17',
      knowledgeType: 'fact',
      infoType: 'context',
      tags: ['les', 'smagorinsky'],
      score: 0.6,
    }),
    piece({
      id: 'les-rans-init',
      content: 'Initialize transient LES from converged RANS -- cuts spin-up by ~40%',
      knowledgeType: 'procedure',
      infoType: 'instructions',
      tags: ['les', 'initialization', 'rans'],
      score: 0.85,
    }),
  ],
  graph: [
    fact({
      relation: 'USES',
      target: 'Technique:dynamic-smagorinsky',
      description: '15% better spectral agreement on JN-042',
      depth: 1,
    }),
    fact({ relation: 'SPECIALIZES_IN', target: 'Technique:les', description: 'LES simulation expert' }),
  ],
  items: [],
};
