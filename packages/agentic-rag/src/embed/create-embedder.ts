import type { Config } from '../config/index.js';
import type { Logger } from '../telemetry/index.js';
import { DeterministicEmbedder } from './deterministic.js';
import type { Embedder } from './embedder.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible.js';

/** The embedder the configuration asks for. loadConfig has already checked the openai settings. */
export function createEmbedder(config: Config, logger?: Logger): Embedder {
  if (config.RAG_EMBEDDER === 'openai') {
    return new OpenAiCompatibleEmbedder({
      baseUrl: config.RAG_EMBEDDER_BASE_URL!,
      model: config.RAG_EMBEDDER_MODEL!,
      dimensions: config.RAG_EMBEDDING_DIMENSIONS,
      ...(config.RAG_EMBEDDER_API_KEY ? { apiKey: config.RAG_EMBEDDER_API_KEY } : {}),
      batchSize: config.RAG_EMBEDDER_BATCH_SIZE,
      timeoutMs: config.RAG_EMBEDDER_TIMEOUT_MS,
      maxRetries: config.RAG_EMBEDDER_MAX_RETRIES,
      sendDimensions: config.RAG_EMBEDDER_SEND_DIMENSIONS,
      ...(logger ? { logger } : {}),
    });
  }
  return new DeterministicEmbedder({
    dimensions: config.RAG_EMBEDDING_DIMENSIONS,
    ...(logger ? { logger } : {}),
  });
}
