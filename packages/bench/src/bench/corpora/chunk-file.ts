import { chunkText, cl100kTokenizer, loaderFor, normalizeText, type Tokenizer } from '@agentic-rag/core';

export interface ChunkFileOptions {
  maxTokens: number;
  overlapTokens: number;
  tokenizer?: Tokenizer;
}

/**
 * The chunk texts the ingest pipeline stores for one file: the same loader (by extension), the same
 * text normalisation and the same chunker with the same token budget. The corpus builder counts
 * them to reach a chunk target, and the LangChain peer stores exactly these texts.
 */
export function chunkFileTexts(sourcePath: string, text: string, options: ChunkFileOptions): string[] {
  const loader = loaderFor(sourcePath);
  if (!loader) return [];
  const tokenizer = options.tokenizer ?? cl100kTokenizer();
  const { documents } = loader({ sourcePath, text: normalizeText(text) });
  return documents.flatMap((document) =>
    chunkText(document.text, document.blocks, {
      tokenizer,
      maxTokens: options.maxTokens,
      overlapTokens: options.overlapTokens,
    }).map((chunk) => chunk.text),
  );
}
