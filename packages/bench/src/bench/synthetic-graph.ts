import type { SourceGraph } from '@agentic-rag/core';
import { seededRandom } from '@agentic-rag/core/testing';
import { weightedPicker } from './weighted-pick.js';

export interface SyntheticGraphOptions {
  workspaceId: string;
  entities: number;
  edges: number;
  sources: number;
  seed?: number;
}

const TYPES = ['RELATED', 'REFERENCES', 'USES_FIELD', 'PART_OF'];

/**
 * A graph shaped like extracted knowledge: entity popularity is Zipf-like (a few hubs such as a
 * product name, a long tail of specific terms), edges are spread over `sources` documents, and
 * every entity an edge touches is mentioned in that document's single chunk (`<source>#0`).
 */
export function syntheticGraph(options: SyntheticGraphOptions): SourceGraph[] {
  const next = seededRandom(options.seed ?? 11);
  const pick = weightedPicker(
    Array.from({ length: options.entities }, (_, rank) => 1 / (rank + 1) ** 0.8),
    next,
  );
  const id = (index: number) => `Concept:entity ${index}`;
  const perSource = Math.ceil(options.edges / options.sources);
  const graphs: SourceGraph[] = [];
  for (let source = 0; source < options.sources; source++) {
    const sourcePath = `graph/doc-${source}.md`;
    const touched = new Set<number>();
    const relations = [];
    for (let edge = 0; edge < perSource; edge++) {
      const from = pick();
      let to = pick();
      if (to === from) to = (from + 1) % options.entities;
      touched.add(from);
      touched.add(to);
      relations.push({
        from: id(from),
        to: id(to),
        type: TYPES[edge % TYPES.length]!,
        weight: 1 + (edge % 3),
      });
    }
    graphs.push({
      workspaceId: options.workspaceId,
      sourcePath,
      entities: [...touched].map((index) => ({
        id: id(index),
        type: 'Concept',
        name: `entity ${index}`,
        aliases: [],
        properties: {},
        defines: false,
        chunks: [{ chunkId: `${sourcePath}#0`, count: 1 }],
      })),
      relations,
    });
  }
  return graphs;
}
