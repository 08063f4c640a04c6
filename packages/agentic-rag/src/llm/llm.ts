export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  /** `json` asks the server for a single JSON object; the prompt must still say "JSON". */
  responseFormat?: 'text' | 'json';
}

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  text: string;
  /** The model the server says answered, which may be more specific than the one asked for. */
  model: string;
  /** `stop`, `length`, ... as the server reports it; null when it does not. */
  finishReason: string | null;
  /** Tokens billed, when the server reports them. */
  usage?: ChatUsage;
}

export interface CompleteOptions {
  signal?: AbortSignal;
}

/**
 * A chat model. Stages that can use one take `Llm | null` and run their model-free path on null
 * (RAG_LLM=offline). Adapters throw RagError: LLM_UNAVAILABLE (retryable), LLM_REQUEST_REJECTED,
 * ABORTED.
 */
export interface Llm {
  /** Names provider and model, for logs and for caching answers. */
  readonly modelId: string;
  complete(request: ChatRequest, options?: CompleteOptions): Promise<ChatResponse>;
}
