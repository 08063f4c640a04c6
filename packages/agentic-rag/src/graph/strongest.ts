import type { EntityMention, StrongestMentions } from './graph-store.js';
import { compareText, sortStrongest } from './mention-order.js';

/**
 * `strongestMentions` from every mention of the entities: per entity the `perEntity` with the
 * most mentions (ties by chunk id), and the entity's spread. For a store that cannot bound the
 * read itself (Neo4j's mentions are lists on source→entity relationships).
 */
export function strongestOf(all: readonly EntityMention[], perEntity: number): StrongestMentions {
  const byEntity = new Map<string, EntityMention[]>();
  for (const mention of all)
    byEntity.set(mention.entityId, [...(byEntity.get(mention.entityId) ?? []), mention]);
  const mentions: StrongestMentions['mentions'] = [];
  const spread = new Map<string, number>();
  for (const [entityId, list] of byEntity) {
    spread.set(entityId, list.length);
    mentions.push(
      ...[...list]
        .sort((left, right) => right.count - left.count || compareText(left.chunkId, right.chunkId))
        .slice(0, Math.max(0, perEntity))
        .map(({ entityId, chunkId, count }) => ({ entityId, chunkId, count })),
    );
  }
  return { mentions: sortStrongest(mentions), spread };
}
