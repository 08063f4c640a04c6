import type { QueryIntent } from '../understand/index.js';
import type { RetrievalFilters } from './filters.js';

/** The narrowings to try in order, most specific first; the caller ends with the plain filters. */
export function narrowings(intent: QueryIntent, filters: RetrievalFilters): RetrievalFilters[] {
  if (intent.kind === 'general' || filters.chunk_type !== undefined) return [];
  const chunkType = intent.kind === 'error' ? 'errors' : intent.kind;
  const narrowed: RetrievalFilters[] = [];
  if (intent.operationType && filters.operation_type === undefined) {
    narrowed.push({ ...filters, chunk_type: chunkType, operation_type: intent.operationType });
  }
  narrowed.push({ ...filters, chunk_type: chunkType });
  return narrowed;
}
