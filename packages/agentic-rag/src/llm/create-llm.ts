import type { Config } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Logger } from '../telemetry/index.js';
import type { Llm } from './llm.js';
import { OpenAiChatLlm } from './openai-chat.js';

export interface CreateLlmOptions {
  /** Per attempt. Default 30 000. */
  timeoutMs?: number;
  /** Retries of one call on transient failures. Default 2. */
  maxRetries?: number;
  logger?: Logger;
}

/**
 * The chat model the configuration asks for, or null for RAG_LLM=offline: stages then run their
 * model-free paths. loadConfig already checks the openai settings; this checks again so a Config
 * built another way fails here, naming the variable, instead of at the first call.
 */
export function createLlm(config: Config, options: CreateLlmOptions = {}): Llm | null {
  switch (config.RAG_LLM) {
    case 'offline':
      return null;
    case 'openai': {
      const missing = (['RAG_LLM_BASE_URL', 'RAG_LLM_MODEL'] as const).filter((key) => !config[key]);
      if (missing.length > 0) {
        throw new RagError(
          ErrorCode.INVALID_CONFIG,
          missing.map((key) => `${key} is required when RAG_LLM=openai`).join('\n'),
          { details: { variables: missing } },
        );
      }
      return new OpenAiChatLlm({
        baseUrl: config.RAG_LLM_BASE_URL!,
        model: config.RAG_LLM_MODEL!,
        ...(config.RAG_LLM_API_KEY ? { apiKey: config.RAG_LLM_API_KEY } : {}),
        timeoutMs: options.timeoutMs ?? 30_000,
        maxRetries: options.maxRetries ?? 2,
        ...(options.logger ? { logger: options.logger } : {}),
      });
    }
  }
}
