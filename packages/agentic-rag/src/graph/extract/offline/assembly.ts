import type { EntityFact, RelationFact } from '../../facts.js';
import { entityKey } from '../../resolve.js';
import type { Candidate } from './collector.js';
import type { Region } from './layout.js';

/** Entities of a paragraph that take part in co-mention edges (the most mentioned first). */
export const MAX_RELATED_PER_UNIT = 12;

/** Assembly: candidates to entity facts, and co-mention (RELATED) edges per unit. */

export function toEntityFacts(candidates: readonly Candidate[]): EntityFact[] {
  return candidates.map((candidate) => {
    const fact: EntityFact = { type: candidate.type, name: candidate.name, mentions: [candidate.span] };
    if (candidate.aliases) fact.aliases = candidate.aliases;
    if (candidate.properties) fact.properties = candidate.properties;
    if (candidate.definition) fact.definition = candidate.definition;
    return fact;
  });
}

/** A capitalised run seen only in headings is title case, not a name. */
export function dropHeadingOnly(candidates: readonly Candidate[]): Candidate[] {
  const inBody = new Set(
    candidates
      .filter((candidate) => !candidate.headingOnly)
      .map((candidate) => entityKey(candidate.type, candidate.name)),
  );
  return candidates.filter(
    (candidate) => !candidate.headingOnly || inBody.has(entityKey(candidate.type, candidate.name)),
  );
}

function unitIndexOf(units: readonly Region[], offset: number): number {
  let low = 0;
  let high = units.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const unit = units[middle]!;
    if (offset < unit.start) high = middle - 1;
    else if (offset >= unit.end) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * RELATED edges between entities named in the same unit, weighted by the number of units they
 * share. Only the MAX_RELATED_PER_UNIT most mentioned entities of a unit take part, so a long
 * list adds at most 66 edges rather than growing quadratically.
 */
export function coMentions(
  entities: readonly EntityFact[],
  units: readonly Region[],
  derived: ReadonlySet<string>,
): RelationFact[] {
  const perUnit = new Map<number, Map<number, { count: number; first: number }>>();
  entities.forEach((entity, entityIndex) => {
    for (const mention of entity.mentions) {
      if (entity.type === 'Resource' && derived.has(`${mention.start}:${mention.end}`)) continue;
      const unitIndex = unitIndexOf(units, mention.start);
      if (unitIndex < 0) continue;
      const counts = perUnit.get(unitIndex) ?? new Map<number, { count: number; first: number }>();
      const entry = counts.get(entityIndex) ?? { count: 0, first: mention.start };
      entry.count++;
      entry.first = Math.min(entry.first, mention.start);
      counts.set(entityIndex, entry);
      perUnit.set(unitIndex, counts);
    }
  });
  const weights = new Map<string, { from: number; to: number; weight: number }>();
  for (const counts of perUnit.values()) {
    const top = [...counts.entries()]
      .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
      .slice(0, MAX_RELATED_PER_UNIT)
      .map(([entityIndex]) => entityIndex)
      .sort((a, b) => a - b);
    for (let i = 0; i < top.length; i++) {
      for (let j = i + 1; j < top.length; j++) {
        const id = `${top[i]}:${top[j]}`;
        const pair = weights.get(id) ?? { from: top[i]!, to: top[j]!, weight: 0 };
        pair.weight++;
        weights.set(id, pair);
      }
    }
  }
  return [...weights.values()]
    .sort((a, b) => a.from - b.from || a.to - b.to)
    .map(({ from, to, weight }) => ({
      from: { type: entities[from]!.type, name: entities[from]!.name },
      to: { type: entities[to]!.type, name: entities[to]!.name },
      type: 'RELATED',
      weight,
    }));
}
