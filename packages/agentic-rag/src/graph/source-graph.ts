import type { DocumentFacts } from './facts.js';
import type { SourceEntity, SourceGraph, SourceRelation } from './graph-store.js';
import { entityKey } from './resolve.js';

/** A chunk of the document as the chunker cut it: UTF-16 offsets into the document's text. */
export interface ChunkSpan {
  chunkId: string;
  start: number;
  end: number;
}

/**
 * Resolves a document's (merged) facts to graph ids and maps every mention to the chunks that
 * contain it, so retrieval can go from an entity to the exact passages. A mention inside the
 * overlap of two chunks counts for both: either is a correct citation. An entity none of whose
 * mentions falls in a chunk (a fact about text the chunker dropped) is left out, and so are the
 * relations that need it, so the graph never holds a node that no passage supports.
 */
export function toSourceGraph(
  workspaceId: string,
  sourcePath: string,
  facts: DocumentFacts,
  chunks: readonly ChunkSpan[],
): SourceGraph {
  const entities = new Map<string, SourceEntity>();
  for (const fact of facts.entities) {
    const id = entityKey(fact.type, fact.name);
    const counts = new Map<string, number>();
    const spans = fact.mentions.length > 0 ? fact.mentions : fact.definition ? [fact.definition] : [];
    for (const span of spans) {
      for (const chunk of chunks) {
        if (chunk.start <= span.start && span.start < chunk.end) {
          counts.set(chunk.chunkId, (counts.get(chunk.chunkId) ?? 0) + 1);
        }
      }
    }
    if (counts.size === 0) continue;
    const existing = entities.get(id);
    if (existing) {
      // Two facts resolved to one key: keep one node, add up the mentions.
      for (const [chunkId, count] of counts) {
        const chunk = existing.chunks.find((candidate) => candidate.chunkId === chunkId);
        if (chunk) chunk.count += count;
        else existing.chunks.push({ chunkId, count });
      }
      existing.defines ||= fact.definition !== undefined;
      existing.aliases = [...new Set([...existing.aliases, ...(fact.aliases ?? [])])];
      continue;
    }
    entities.set(id, {
      id,
      type: fact.type,
      name: fact.name,
      aliases: [...new Set(fact.aliases ?? [])],
      properties: fact.properties ?? {},
      defines: fact.definition !== undefined,
      chunks: [...counts].map(([chunkId, count]) => ({ chunkId, count })),
    });
  }
  const relations: SourceRelation[] = [];
  for (const relation of facts.relations) {
    const from = entityKey(relation.from.type, relation.from.name);
    const to = entityKey(relation.to.type, relation.to.name);
    if (from === to || !entities.has(from) || !entities.has(to)) continue;
    relations.push({ from, to, type: relation.type, weight: relation.weight ?? 1 });
  }
  return { workspaceId, sourcePath, entities: [...entities.values()], relations };
}
