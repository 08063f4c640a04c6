import { z } from 'zod';
import { definingPassage, entityKey, NUMBERED_ENTITY_TYPES, type GraphStore } from '../graph/index.js';
import { citable, type ChunkReader, type CitableChunk } from '../store/index.js';
import type { Tool } from './tool.js';

const lookupInput = z.object({
  workspaceId: z.string().min(1).max(64),
  type: z
    .string()
    .transform((type) => type.charAt(0).toUpperCase() + type.slice(1).toLowerCase())
    .pipe(z.enum(NUMBERED_ENTITY_TYPES)),
  number: z
    .string()
    .regex(/^[A-Z]?\d+(\.\d+)*$/i)
    .describe('an entity number such as 3.2 or A.1'),
});

export interface LookupResult {
  entity: { id: string; type: string; number: string; title: string | null; definedBy: string | null };
  /** The chunk that defines it (`**Algorithm 3.2.**` or its heading), when one does. */
  definition: CitableChunk | null;
}

/**
 * `lookup`: a numbered entity (Algorithm 3.2, Equation 19.5, Table A.1) straight from the
 * knowledge graph, with the chunk that defines it, so an answer about it starts from its
 * definition rather than from whatever passage mentions it most.
 */
export function lookupTool(chunkReader: ChunkReader, graph: GraphStore): Tool<typeof lookupInput> {
  return {
    name: 'lookup',
    description:
      'Finds a numbered entity (formula, algorithm, table, figure, ...) by type and number, with its defining passage.',
    inputSchema: lookupInput,
    timeoutMs: 2_000,
    async run({ workspaceId, type, number }, { signal }) {
      const id = entityKey(type, number);
      const [entity] = await graph.getEntities({ workspaceId, ids: [id], signal });
      if (!entity)
        return {
          output: `${type} ${number} is not in the knowledge base.`,
          data: { entity: null, definition: null },
          found: false,
        };
      const title = typeof entity.properties.title === 'string' ? entity.properties.title : null;
      const mentions = (await graph.mentions({ workspaceId, entityIds: [entity.id], signal })).filter(
        (mention) => entity.definedBy === null || mention.sourcePath === entity.definedBy,
      );
      const chunks =
        mentions.length === 0
          ? []
          : (
              await chunkReader.find(workspaceId, { chunkIds: mentions.map((mention) => mention.chunkId) })
            ).map(citable);
      const definition = definingPassage(
        entity,
        mentions.flatMap((mention) => {
          const chunk = chunks.find((candidate) => candidate.chunkId === mention.chunkId);
          return chunk ? [{ count: mention.count, chunk }] : [];
        }),
      );
      const where = entity.definedBy
        ? ` is defined in ${definition?.title ?? entity.definedBy}`
        : ' is mentioned in the knowledge base';
      const result: LookupResult = {
        entity: { id: entity.id, type, number, title, definedBy: entity.definedBy },
        definition,
      };
      return {
        output: `${type} ${number}${title ? ` (${title})` : ''}${where}.`,
        data: result,
        sources: definition
          ? [
              {
                title: definition.title ?? definition.sourceId,
                ...(definition.url ? { url: definition.url } : {}),
              },
            ]
          : [],
      };
    },
  };
}
