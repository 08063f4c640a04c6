import type { SearchHit } from '../api/types.js';
import { splitEntityId } from './graph-names.js';

/** An entity the passages found by a search mention. */
export interface MentionedEntity {
  id: string;
  type: string;
  name: string;
  /** How many of the hits mention it. */
  passages: number;
  /** The rank (1 = first) of the best hit that mentions it. */
  bestRank: number;
  /** Its name holds a word of the query: what was asked for by name, not just nearby. */
  named: boolean;
}

// Words of three letters or more: "a", "of" and "to" would name half the graph.
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];

/**
 * The entities mentioned by search hits (given best first): those whose name holds a word of the
 * query first, then the most mentioned, ties by the best hit that mentions them. There is no entity
 * search in the API: passages that match a query are the way in. An entity many of them mention is
 * likely what the query is about, unless it is mentioned everywhere (an auth scheme every API
 * operation names); a name that matches the query says so more surely.
 */
export function mentionedEntities(
  hits: ReadonlyArray<Pick<SearchHit, 'mentions'>>,
  query = '',
): MentionedEntity[] {
  const asked = wordsOf(query);
  const found = new Map<string, MentionedEntity>();
  hits.forEach((hit, index) => {
    // A hit that lists an entity twice is still one passage.
    for (const id of new Set(hit.mentions)) {
      const entity = found.get(id);
      if (entity) entity.passages += 1;
      else {
        const { type, name } = splitEntityId(id);
        const named = wordsOf(name).some((word) => asked.some((other) => word.startsWith(other)));
        found.set(id, { id, type, name, passages: 1, bestRank: index + 1, named });
      }
    }
  });
  return [...found.values()].sort(
    (a, b) =>
      Number(b.named) - Number(a.named) ||
      b.passages - a.passages ||
      a.bestRank - b.bestRank ||
      a.id.localeCompare(b.id),
  );
}
