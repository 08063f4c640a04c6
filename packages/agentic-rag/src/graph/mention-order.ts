import type { EntityMention, StrongestMentions } from './graph-store.js';

/** Code-point order, the same on every backend and under every database collation. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The order every store returns mentions in: by entity, source and chunk. */
export function sortMentions(mentions: EntityMention[]): EntityMention[] {
  return mentions.sort(
    (left, right) =>
      compareText(left.entityId, right.entityId) ||
      compareText(left.sourcePath, right.sourcePath) ||
      compareText(left.chunkId, right.chunkId),
  );
}

/** The order every store returns strongest mentions in: by entity and chunk. */
export function sortStrongest(mentions: StrongestMentions['mentions']): StrongestMentions['mentions'] {
  return mentions.sort(
    (left, right) => compareText(left.entityId, right.entityId) || compareText(left.chunkId, right.chunkId),
  );
}
