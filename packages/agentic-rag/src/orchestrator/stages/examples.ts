import { citable, type ChunkReader } from '../../store/index.js';
import type { Source } from '../answer-types.js';

const MARKER = 'Example request body:';

/**
 * The request-example chunks of the best API operations retrieved, when retrieval did not bring
 * them: an operation's example usually sits in a later chunk than its summary, and a caller
 * asking which endpoint to use wants to see what to send.
 */
export async function requestExamples(
  chunks: ChunkReader,
  workspaceId: string,
  sources: readonly Source[],
  limit = 2,
): Promise<Source[]> {
  const operations = [
    ...new Set(
      sources
        .filter((source) => source.origin === 'primary' && source.sourceId.includes('#paths/'))
        .map((source) => source.sourceId),
    ),
  ].slice(0, limit);
  if (operations.length === 0) return [];
  const have = new Set(sources.map((source) => source.chunkId));
  const found = (await chunks.find(workspaceId, { sourcePaths: operations, containing: MARKER })).map(
    citable,
  );
  const rank = sources.length;
  return found
    .filter((chunk) => !have.has(chunk.chunkId))
    .sort((left, right) => operations.indexOf(left.sourceId) - operations.indexOf(right.sourceId))
    .map((chunk, index) => ({ ...chunk, score: 0, rank: rank + index, origin: 'reference' as const }));
}
