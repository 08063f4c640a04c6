import { extractNumberedEntities } from './extract/numbered.js';
import { extractEntities } from './extract/offline.js';
import { entityKey } from './resolve.js';

/** Types a plain phrase of the question may name ("location", "rate card", "POMDP"). */
const PHRASE_TYPES = ['Concept', 'Resource', 'OperationType', 'Schema', 'Acronym', 'Identifier', 'ErrorCode'];
const MAX_PHRASE_WORDS = 3;

/**
 * Entity ids a question may refer to: what the extractors find in it (`POST /locations`,
 * `Algorithm 3.2`, acronyms) and every phrase of up to three words read as each common type.
 * Most candidates name nothing; the graph store keeps the ones that exist.
 */
export function candidateEntityIds(query: string): string[] {
  const ids = new Set<string>();
  for (const facts of [extractEntities(query), extractNumberedEntities(query)]) {
    for (const entity of facts.entities) ids.add(entityKey(entity.type, entity.name));
  }
  const words = query.match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? [];
  for (let start = 0; start < words.length; start++) {
    for (let length = 1; length <= MAX_PHRASE_WORDS && start + length <= words.length; length++) {
      const phrase = words.slice(start, start + length).join(' ');
      if (phrase.length < 3) continue;
      for (const type of PHRASE_TYPES) ids.add(entityKey(type, phrase));
    }
  }
  // A phrase that normalises to nothing ("the") has no key.
  return [...ids].filter((id) => !id.endsWith(':'));
}
