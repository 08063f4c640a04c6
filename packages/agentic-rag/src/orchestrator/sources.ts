import type { KnowledgeContext } from '../retrieve/index.js';
import { citable } from '../store/index.js';
import type { Citation, Source } from './answer-types.js';

/** In the context's own order: primary first unless CONTEXT_PRIORITIZE_PRIMARY=false made it score order. */
export function contextSources(context: KnowledgeContext): Source[] {
  return context.chunks.map((chunk, rank) => ({
    ...citable(chunk),
    score: chunk.score,
    ...(chunk.pageNumber !== undefined ? { pageNumber: chunk.pageNumber } : {}),
    rank,
    origin: chunk.reference ? 'reference' : 'primary',
  }));
}

const SNIPPET_LENGTH = 240;

/** The citation list for the sources an answer used, numbered as the answer numbers them. */
export function toCitations(
  cited: ReadonlyArray<{ index: number; source: Source; quote?: string }>,
): Citation[] {
  return cited.map(({ index, source, quote }) => ({
    index,
    sourceId: source.sourceId,
    chunkId: source.chunkId,
    title: source.title,
    url: source.url,
    snippet: snippet(quote ?? source.text),
    startOffset: source.startOffset,
    endOffset: source.endOffset,
    score: Number(source.score.toFixed(4)),
    pageNumber: source.pageNumber ?? null,
  }));
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SNIPPET_LENGTH ? flat : `${flat.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…`;
}
