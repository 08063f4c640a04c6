import type { Llm } from '../../llm/index.js';
import type { HybridRetriever, RetrievalFilters } from '../../retrieve/index.js';
import { contentStems, splitUnits } from '../text.js';

const PRF_HITS = 3;
const PRF_SENTENCES = 4;
const MAX_LENGTH = 1200;

/**
 * A hypothetical answer document, embedded as a second dense query. With an LLM it is the
 * model's guess at an answer (wrong facts do little harm: only its wording is used to search).
 * Without one it is pseudo-relevance feedback: the sentences of the best BM25 hits that share
 * most words with the question, which moves the dense query towards the corpus's own phrasing.
 */
export async function hydeDocument(
  query: string,
  context: {
    llm: Llm | null;
    retriever: HybridRetriever;
    workspaceId: string;
    filters: RetrievalFilters;
    signal?: AbortSignal;
    corpusVersion?: number;
  },
): Promise<{ text: string; method: 'llm' | 'pseudo-relevance' } | null> {
  if (context.llm) {
    const response = await context.llm.complete(
      {
        messages: [
          {
            role: 'system',
            content:
              'Write one short factual paragraph (at most 120 words) that would answer the question, in the style of technical documentation. No preamble.',
          },
          { role: 'user', content: query },
        ],
        temperature: 0,
        maxTokens: 200,
      },
      context.signal ? { signal: context.signal } : {},
    );
    const text = response.text.trim().slice(0, MAX_LENGTH);
    return text ? { text, method: 'llm' } : null;
  }
  const lexical = await context.retriever.retrieve({
    workspaceId: context.workspaceId,
    query,
    k: PRF_HITS,
    filters: context.filters,
    channels: ['lexical'],
    rerank: false,
    intent: false,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.corpusVersion !== undefined ? { corpusVersion: context.corpusVersion } : {}),
  });
  const wanted = new Set(contentStems(query));
  const sentences = lexical.hits
    .flatMap((hit, rank) =>
      splitUnits(hit.text)
        .filter((unit) => unit.kind !== 'code')
        .map((unit) => {
          const stems = new Set(contentStems(unit.text));
          let shared = 0;
          for (const stem of wanted) if (stems.has(stem)) shared++;
          return { text: unit.text, score: shared / Math.max(1, wanted.size) + 0.1 / (1 + rank) };
        }),
    )
    .filter((sentence) => sentence.score > 0.1)
    .sort((left, right) => right.score - left.score)
    .slice(0, PRF_SENTENCES);
  const text = sentences
    .map((sentence) => sentence.text)
    .join(' ')
    .slice(0, MAX_LENGTH);
  return text ? { text, method: 'pseudo-relevance' } : null;
}
