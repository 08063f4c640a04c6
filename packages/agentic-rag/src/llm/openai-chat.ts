import { ErrorCode, RagError, type RagErrorOptions } from '../errors/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { ChatRequest, ChatResponse, ChatUsage, CompleteOptions, Llm } from './llm.js';

export interface OpenAiChatLlmOptions {
  /**
   * The server root, with or without `/v1`: `http://localhost:11434` and
   * `http://localhost:11434/v1` both reach `/v1/chat/completions`. Any other path is kept as given
   * (`https://host/v1beta/openai` → `/v1beta/openai/chat/completions`), and so is a query string.
   */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; never appears in errors or logs. */
  apiKey?: string;
  /** Per attempt, reading the answer included. Default 30 000. */
  timeoutMs?: number;
  /**
   * Retries of one call on network errors, timeouts, 408, 429 and 5xx. Default 2. Callers that
   * also retry (a BullMQ job on LLM_UNAVAILABLE) should set 0 here rather than retry twice.
   */
  maxRetries?: number;
  /** First backoff; doubles per retry, with jitter. Default 250. */
  retryBaseDelayMs?: number;
  /** Cap on any wait between attempts, Retry-After included. Default 60 000. */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
  logger?: Logger;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface ChatCompletionsPayload {
  model?: unknown;
  choices?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
}

interface ChatChoice {
  message?: { content?: unknown; refusal?: unknown } | null;
  finish_reason?: unknown;
}

interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
}

const PROVIDER = 'openai-compatible';

/**
 * Any server that speaks the OpenAI chat-completions API (OpenAI, vLLM, Ollama, llama.cpp, LM
 * Studio, LiteLLM). One non-streaming call per `complete`; retries transient failures with
 * exponential backoff and jitter, honouring Retry-After.
 */
export class OpenAiChatLlm implements Llm {
  readonly modelId: string;
  private readonly endpoint: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly logger: Logger;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: OpenAiChatLlmOptions) {
    this.modelId = `${PROVIDER}:${options.model}`;
    this.endpoint = chatCompletionsUrl(options.baseUrl);
    this.apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 250;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetchImpl = options.fetch ?? fetch;
    this.logger = options.logger ?? silentLogger;
    this.sleep = options.sleep ?? abortableSleep;
  }

  async complete(request: ChatRequest, options: CompleteOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    if (signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'chat completion aborted');
    if (request.messages.length === 0) {
      throw new RagError(ErrorCode.INVALID_INPUT, 'a chat request needs at least one message');
    }
    const body = JSON.stringify(this.requestBody(request));

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'chat completion aborted');
      const started = performance.now();
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const attempts = attempt + 1;
      let reply: HttpReply;
      try {
        reply = await this.send(body, signal ? AbortSignal.any([signal, timeout]) : timeout);
      } catch (error) {
        if (signal?.aborted) {
          this.logCall('aborted', started, { attempt });
          throw new RagError(ErrorCode.ABORTED, 'chat completion aborted', { cause: error });
        }
        const reason = timeout.aborted
          ? `did not answer within ${this.timeoutMs} ms`
          : `unreachable: ${networkReason(error)}`;
        if (attempt < this.maxRetries) {
          this.logCall('retry', started, { attempt, error: reason });
          await this.backoff(attempt, null, signal);
          continue;
        }
        this.logCall('failed', started, { attempt, error: reason });
        throw this.error(
          ErrorCode.LLM_UNAVAILABLE,
          `chat server ${reason} (${plural(attempts, 'attempt')})`,
          {
            cause: error,
            details: { attempts },
          },
        );
      }

      const { status } = reply;
      if (status === 408 || status === 429 || status >= 500) {
        if (attempt < this.maxRetries) {
          this.logCall('retry', started, { attempt, status });
          await this.backoff(attempt, retryAfterMs(reply.headers), signal);
          continue;
        }
        this.logCall('failed', started, { attempt, status });
        throw this.error(
          ErrorCode.LLM_UNAVAILABLE,
          `chat server answered ${status} after ${plural(attempts, 'attempt')}: ${serverMessage(reply.text)}`,
          { details: { status, attempts } },
        );
      }
      if (status < 200 || status >= 300) {
        this.logCall('rejected', started, { attempt, status });
        throw this.error(
          ErrorCode.LLM_REQUEST_REJECTED,
          `chat request rejected (${status}): ${serverMessage(reply.text)}`,
          { details: { status } },
        );
      }

      let response: ChatResponse;
      try {
        response = this.parse(reply.text);
      } catch (error) {
        this.logCall('failed', started, { attempt, status, error: (error as Error).message });
        throw error;
      }
      this.logCall('ok', started, {
        attempt,
        status,
        finishReason: response.finishReason,
        ...(response.usage ?? {}),
      });
      return response;
    }
  }

  private requestBody(request: ChatRequest): Record<string, unknown> {
    return {
      model: this.options.model,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.responseFormat === 'json' ? { response_format: { type: 'json_object' } } : {}),
    };
  }

  /** The whole exchange runs under `signal`, so a server that stalls mid-body still times out. */
  private async send(body: string, signal: AbortSignal): Promise<HttpReply> {
    const response = await this.fetchImpl(this.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      },
      body,
      signal,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  private parse(text: string): ChatResponse {
    let payload: ChatCompletionsPayload;
    try {
      payload = JSON.parse(text) as ChatCompletionsPayload;
    } catch (error) {
      throw new RagError(ErrorCode.LLM_UNAVAILABLE, 'chat server answered 200 with a body that is not JSON', {
        cause: error,
      });
    }
    if (typeof payload !== 'object' || payload === null) {
      throw new RagError(
        ErrorCode.LLM_UNAVAILABLE,
        'chat server answered 200 with a body that is not an object',
      );
    }
    const choices = payload.choices;
    if (!Array.isArray(choices) || choices.length === 0) {
      throw new RagError(ErrorCode.LLM_UNAVAILABLE, 'chat server answered 200 without choices');
    }
    const choice = (choices[0] ?? {}) as ChatChoice;
    const content = choice.message?.content;
    if (typeof content !== 'string') {
      const refusal = choice.message?.refusal;
      throw this.error(
        ErrorCode.LLM_UNAVAILABLE,
        typeof refusal === 'string'
          ? `chat server answered 200 with a refusal instead of message content: ${refusal.slice(0, 300)}`
          : 'chat server answered 200 without message content',
      );
    }
    const usage = parseUsage(payload.usage);
    return {
      text: content,
      model: typeof payload.model === 'string' && payload.model !== '' ? payload.model : this.options.model,
      finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
      ...(usage ? { usage } : {}),
    };
  }

  private async backoff(attempt: number, retryAfter: number | null, signal?: AbortSignal): Promise<void> {
    const exponential = this.retryBaseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
    try {
      await this.sleep(Math.min(retryAfter ?? exponential, this.maxRetryDelayMs), signal);
    } catch (error) {
      if (signal?.aborted) {
        throw new RagError(ErrorCode.ABORTED, 'chat completion aborted while waiting to retry', {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** Every message built from server text goes through here, so an echoed key is masked. */
  private error(code: ErrorCode, message: string, options?: RagErrorOptions): RagError {
    const masked = this.apiKey ? message.split(this.apiKey).join('[redacted]') : message;
    return new RagError(code, masked, options);
  }

  private logCall(outcome: string, started: number, fields: Record<string, unknown>): void {
    const level = outcome === 'ok' ? 'info' : 'warn';
    this.logger[level]('llm call', {
      event: 'llm-call',
      provider: PROVIDER,
      model: this.options.model,
      latencyMs: Math.round(performance.now() - started),
      outcome,
      ...fields,
    });
  }
}

/** `/v1` is added only to a bare origin; a path the user gave is theirs. */
function chatCompletionsUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new RagError(ErrorCode.INVALID_CONFIG, 'the LLM base URL is not a valid URL', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      `the LLM base URL must be http or https, not ${url.protocol}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such URLs, and the password would end up in logs: the key goes in apiKey.
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      'the LLM base URL must not carry credentials; pass the key as the API key (RAG_LLM_API_KEY)',
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = `${path === '' ? '/v1' : path}/chat/completions`;
  url.hash = '';
  return url.toString();
}

/** Milliseconds to wait from `retry-after-ms` (OpenAI) or `Retry-After` (seconds or HTTP date). */
function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const milliseconds = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The server's own error message (OpenAI, vLLM and Ollama shapes), else the start of the body. */
function serverMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown } | null;
    const error = parsed?.error;
    const candidate =
      typeof error === 'string'
        ? error
        : typeof error === 'object' && error !== null && 'message' in error
          ? error.message
          : parsed?.message;
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // Not JSON: an HTML error page or plain text from a proxy; show its start.
  }
  const compact = message.replace(/\s+/g, ' ').trim();
  return compact === '' ? '(empty body)' : compact.slice(0, 300);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function networkReason(error: unknown): string {
  // undici reports "fetch failed" and puts what happened (ECONNREFUSED, ENOTFOUND) in `cause`.
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseUsage(usage: ChatCompletionsPayload['usage']): ChatUsage | undefined {
  const promptTokens = usage?.prompt_tokens;
  const completionTokens = usage?.completion_tokens;
  if (typeof promptTokens !== 'number' || typeof completionTokens !== 'number') return undefined;
  return { promptTokens, completionTokens };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RagError(ErrorCode.ABORTED, 'aborted while waiting to retry'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RagError(ErrorCode.ABORTED, 'aborted while waiting to retry'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
