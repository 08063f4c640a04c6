import { ErrorCode, RagError } from '../errors/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { EmbedOptions, EmbedResult, Embedder } from './embedder.js';

export interface OpenAiCompatibleEmbedderOptions {
  /** e.g. http://localhost:11434/v1 — `/embeddings` is appended. */
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  batchSize?: number;
  timeoutMs?: number;
  /** Retries of one HTTP call on 429 and 5xx. Queue-level retries are separate: see docs/queue.md. */
  maxRetries?: number;
  /** Send `dimensions` in the request (models with Matryoshka embeddings accept it). */
  sendDimensions?: boolean;
  fetch?: typeof fetch;
  logger?: Logger;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface EmbeddingsResponse {
  data?: Array<{ embedding?: unknown; index?: number }>;
  usage?: { prompt_tokens?: number; total_tokens?: number };
}

/**
 * Any server that speaks the OpenAI embeddings API (OpenAI, vLLM, Ollama, LM Studio, TEI in
 * OpenAI mode). Batches inputs, retries 429/5xx with exponential backoff honouring Retry-After,
 * and checks every vector's length against the configured dimension.
 */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly endpoint: string;
  private readonly fetchImpl: typeof fetch;
  private readonly logger: Logger;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    this.modelId = `openai-compatible:${options.model}`;
    this.dimensions = options.dimensions;
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.fetchImpl = options.fetch ?? fetch;
    this.logger = options.logger ?? silentLogger;
    this.sleep = options.sleep ?? abortableSleep;
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    if (options.signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'embedding aborted');
    const batchSize = this.options.batchSize ?? 64;
    const embeddings: number[][] = [];
    let tokens = 0;
    for (let offset = 0; offset < options.texts.length; offset += batchSize) {
      const batch = options.texts.slice(offset, offset + batchSize);
      const result = await this.embedBatch(batch, options.signal);
      embeddings.push(...result.embeddings);
      tokens += result.tokens ?? 0;
    }
    return { embeddings, tokens };
  }

  private async embedBatch(texts: readonly string[], signal?: AbortSignal): Promise<EmbedResult> {
    const maxRetries = this.options.maxRetries ?? 4;
    const body = JSON.stringify({
      model: this.options.model,
      input: texts,
      encoding_format: 'float',
      ...(this.options.sendDimensions ? { dimensions: this.dimensions } : {}),
    });
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const started = performance.now();
      const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
      let response: Response;
      try {
        response = await this.fetchImpl(this.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'embedding aborted', { cause: error });
        if (attempt < maxRetries) {
          await this.backoff(attempt, null, signal);
          continue;
        }
        this.logCall('failed', texts.length, started, { error: (error as Error).message });
        throw new RagError(
          ErrorCode.EMBEDDER_UNAVAILABLE,
          `embedding server unreachable: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }

      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        if (attempt < maxRetries) {
          this.logCall('retry', texts.length, started, { status: response.status, attempt });
          await this.backoff(attempt, response.headers.get('retry-after'), signal);
          continue;
        }
        this.logCall('failed', texts.length, started, { status: response.status });
        throw new RagError(
          ErrorCode.EMBEDDER_UNAVAILABLE,
          `embedding server answered ${response.status} after ${attempt + 1} attempts`,
          { details: { status: response.status } },
        );
      }
      if (!response.ok) {
        const detail = (await response.text()).slice(0, 300);
        this.logCall('failed', texts.length, started, { status: response.status });
        throw new RagError(
          ErrorCode.EMBEDDER_REQUEST_REJECTED,
          `embedding request rejected (${response.status}): ${detail}`,
          {
            details: { status: response.status },
          },
        );
      }

      let payload: EmbeddingsResponse;
      try {
        payload = (await response.json()) as EmbeddingsResponse;
      } catch (error) {
        throw new RagError(
          ErrorCode.EMBEDDER_UNAVAILABLE,
          'embedding server answered 200 with a body that is not JSON',
          {
            cause: error,
          },
        );
      }
      const embeddings = this.parse(payload, texts.length);
      const tokens = payload.usage?.prompt_tokens ?? payload.usage?.total_tokens;
      this.logCall('ok', texts.length, started, { tokens });
      return { embeddings, ...(tokens === undefined ? {} : { tokens }) };
    }
  }

  private parse(payload: EmbeddingsResponse, expected: number): number[][] {
    const data = payload.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new RagError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `embedding server returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} inputs`,
      );
    }
    const ordered = [...data].sort((left, right) => (left.index ?? 0) - (right.index ?? 0));
    return ordered.map((item) => {
      const vector = item.embedding;
      if (
        !Array.isArray(vector) ||
        !vector.every((value) => typeof value === 'number' && Number.isFinite(value))
      ) {
        throw new RagError(ErrorCode.EMBEDDER_UNAVAILABLE, 'embedding server returned a malformed vector');
      }
      if (vector.length !== this.dimensions) {
        throw new RagError(
          ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
          `model ${this.options.model} returned ${vector.length}-dimensional vectors but RAG_EMBEDDING_DIMENSIONS is ${this.dimensions}`,
          { details: { expected: this.dimensions, actual: vector.length } },
        );
      }
      return vector as number[];
    });
  }

  private async backoff(attempt: number, retryAfter: string | null, signal?: AbortSignal): Promise<void> {
    const fromHeader = retryAfter === null ? NaN : Number(retryAfter) * 1000;
    const exponential = Math.min(30_000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
    await this.sleep(Number.isFinite(fromHeader) ? Math.min(fromHeader, 60_000) : exponential, signal);
  }

  private logCall(outcome: string, inputs: number, started: number, fields: Record<string, unknown>): void {
    this.logger.info('embedding call', {
      event: 'embedding-call',
      provider: 'openai-compatible',
      model: this.options.model,
      inputs,
      latencyMs: Math.round(performance.now() - started),
      outcome,
      ...fields,
    });
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RagError(ErrorCode.ABORTED, 'aborted while waiting to retry'));
      },
      { once: true },
    );
  });
}
