import { ErrorCode, RagError } from '../../errors/index.js';
import type { RerankOptions, RerankResult, Reranker } from './reranker.js';

export interface HttpCrossEncoderOptions {
  /** Base URL of a TEI-style server; `/rerank` is appended. */
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * A cross-encoder behind Hugging Face text-embeddings-inference's `/rerank` API:
 * POST {query, texts, truncate} → [{index, score}]. One request per rerank, no retries here: the
 * retriever falls back to the fused order when the reranker fails.
 */
export class HttpCrossEncoderReranker implements Reranker {
  readonly name = 'http-cross-encoder';
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpCrossEncoderOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  async rerank(options: RerankOptions): Promise<RerankResult> {
    if (options.candidates.length === 0) return { scores: [] };
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.options.baseUrl.replace(/\/+$/, '')}/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: options.query,
          texts: options.candidates.map((candidate) => candidate.text),
          truncate: true,
        }),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
    } catch (error) {
      if (options.signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'rerank aborted', { cause: error });
      throw new RagError(
        ErrorCode.RERANKER_UNAVAILABLE,
        `reranker unreachable: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RagError(ErrorCode.RERANKER_UNAVAILABLE, `reranker answered ${response.status}`, {
        details: { status: response.status },
      });
    }
    const body = (await response.json().catch(() => null)) as Array<{
      index?: unknown;
      score?: unknown;
    } | null> | null;
    if (!Array.isArray(body))
      throw new RagError(ErrorCode.RERANKER_UNAVAILABLE, 'reranker answered with no result list');
    const scores = new Array<number>(options.candidates.length).fill(Number.NEGATIVE_INFINITY);
    for (const item of body) {
      if (item && typeof item.index === 'number' && typeof item.score === 'number' && item.index in scores) {
        scores[item.index] = item.score;
      }
    }
    if (scores.some((score) => score === Number.NEGATIVE_INFINITY)) {
      throw new RagError(ErrorCode.RERANKER_UNAVAILABLE, 'reranker did not score every candidate');
    }
    return { scores };
  }
}
