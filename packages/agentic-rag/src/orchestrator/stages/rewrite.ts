import { candidateEntityIds, type GraphStore } from '../../graph/index.js';
import type { Correction, HybridRetriever } from '../../retrieve/index.js';

export interface Rewrite {
  query: string;
  corrections: Correction[];
  /** Long forms added for acronyms the knowledge base declares (`POMDP` → its expansion). */
  expansions: Array<{ term: string; expansion: string }>;
}

/**
 * Normalises whitespace, applies the retriever's typo corrections (reported, never silent) and
 * adds the declared long form of each acronym the question uses, so passages that only spell it
 * out are found too.
 */
export async function rewrite(
  retriever: HybridRetriever,
  graph: GraphStore,
  workspaceId: string,
  query: string,
): Promise<Rewrite> {
  const normalized = query.replace(/\s+/g, ' ').trim();
  const { correctedQuery, corrections } = await retriever.correct(workspaceId, normalized);
  let rewritten = correctedQuery ?? normalized;
  const acronyms = (await graph.getEntities(workspaceId, candidateEntityIds(rewritten))).filter(
    (entity) => entity.type === 'Acronym' && entity.aliases.length > 0,
  );
  const expansions: Rewrite['expansions'] = [];
  for (const acronym of acronyms) {
    const expansion = acronym.aliases.find((alias) => alias.includes(' '));
    if (!expansion || rewritten.toLowerCase().includes(expansion.toLowerCase())) continue;
    expansions.push({ term: acronym.name, expansion });
    rewritten = `${rewritten} (${expansion})`;
  }
  return { query: rewritten, corrections, expansions };
}
