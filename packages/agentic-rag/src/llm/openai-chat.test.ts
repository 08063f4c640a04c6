import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RagError } from '../errors/index.js';
import type { LogFields, Logger } from '../telemetry/index.js';
import {
  chatCompletion,
  sendJson,
  startChatServer,
  type ChatHandler,
  type ChatServer,
} from './chat-test-server.js';
import type { ChatRequest } from './llm.js';
import { OpenAiChatLlm, type OpenAiChatLlmOptions } from './openai-chat.js';

const KEY = 'sk-test-0123456789abcdef';
const QUESTION: ChatRequest = { messages: [{ role: 'user', content: 'What is RAG?' }] };

const answer =
  (content: string, fields: Parameters<typeof chatCompletion>[0] = {}): ChatHandler =>
  (_request, response) =>
    sendJson(response, 200, chatCompletion({ content, ...fields }));
const status =
  (code: number, headers: Record<string, string> = {}, message = `status ${code}`): ChatHandler =>
  (_request, response) =>
    sendJson(response, code, { error: { message, type: 'test_error' } }, headers);
const raw =
  (body: string): ChatHandler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  };
const hang: ChatHandler = () => {};

/** Resolves to the RagError a call rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<RagError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error('expected the call to reject');
}

function expectNoKey(error: RagError): void {
  expect(error.message).not.toContain(KEY);
  expect(JSON.stringify(error.details ?? {})).not.toContain(KEY);
  expect(String((error.cause as Error | undefined)?.message ?? '')).not.toContain(KEY);
}

function recordingLogger(): { logger: Logger; entries: Array<{ message: string; fields?: LogFields }> } {
  const entries: Array<{ message: string; fields?: LogFields }> = [];
  const record = (message: string, fields?: LogFields) => void entries.push({ message, fields });
  const logger: Logger = { debug: record, info: record, warn: record, error: record, child: () => logger };
  return { logger, entries };
}

describe('OpenAiChatLlm against a local chat-completions server', () => {
  let server: ChatServer;
  let responders: ChatHandler[];

  beforeAll(async () => {
    server = await startChatServer((request, response) =>
      (responders.shift() ?? answer('ok'))(request, response),
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    responders = [];
  });

  const llm = (overrides: Partial<OpenAiChatLlmOptions> = {}) =>
    new OpenAiChatLlm({
      baseUrl: `${server.url}/v1`,
      model: 'test-chat',
      apiKey: KEY,
      maxRetries: 2,
      retryBaseDelayMs: 1,
      maxRetryDelayMs: 20,
      ...overrides,
    });

  it('forwards messages, model and options, sends the key, and parses the answer', async () => {
    responders = [
      answer('{"answer":"retrieval-augmented generation"}', {
        model: 'test-chat-2025-01',
        usage: { promptTokens: 12, completionTokens: 7 },
      }),
    ];
    const model = llm();
    const result = await model.complete({
      messages: [
        { role: 'system', content: 'Answer in JSON.' },
        { role: 'user', content: 'What is RAG?' },
      ],
      temperature: 0.2,
      maxTokens: 64,
      responseFormat: 'json',
    });

    expect(model.modelId).toBe('openai-compatible:test-chat');
    expect(result).toEqual({
      text: '{"answer":"retrieval-augmented generation"}',
      model: 'test-chat-2025-01',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 7 },
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      model: 'test-chat',
      messages: [
        { role: 'system', content: 'Answer in JSON.' },
        { role: 'user', content: 'What is RAG?' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      response_format: { type: 'json_object' },
    });
  });

  it('leaves out what was not asked for, and falls back to the configured model name', async () => {
    responders = [
      (_request, response) =>
        sendJson(response, 200, {
          choices: [{ message: { role: 'assistant', content: 'hello' }, finish_reason: null }],
        }),
    ];
    const result = await llm({ apiKey: '' }).complete({ ...QUESTION, responseFormat: 'text' });
    expect(result).toEqual({ text: 'hello', model: 'test-chat', finishReason: null });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body).toEqual({ model: 'test-chat', messages: QUESTION.messages });
  });

  it.each([
    ['a bare origin', '', '/v1/chat/completions'],
    ['a bare origin with a slash', '/', '/v1/chat/completions'],
    ['/v1', '/v1', '/v1/chat/completions'],
    ['/v1/', '/v1/', '/v1/chat/completions'],
    ['another versioned prefix', '/v1beta/openai/', '/v1beta/openai/chat/completions'],
    [
      'a query string',
      '/openai/v1?api-version=2024-10-21',
      '/openai/v1/chat/completions?api-version=2024-10-21',
    ],
  ])('accepts a base URL with %s', async (_name, suffix, path) => {
    await llm({ baseUrl: `${server.url}${suffix}` }).complete(QUESTION);
    expect(server.requests.map((request) => request.path)).toEqual([path]);
  });

  it('retries 503 and 502 with exponential backoff and jitter, then succeeds', async () => {
    const waits: number[] = [];
    responders = [status(503), status(502), answer('recovered')];
    const result = await llm({
      retryBaseDelayMs: 100,
      maxRetryDelayMs: 60_000,
      sleep: async (ms) => void waits.push(ms),
    }).complete(QUESTION);
    expect(result.text).toBe('recovered');
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('retries with the real sleep, waiting as long as retry-after-ms says', async () => {
    responders = [status(429, { 'retry-after-ms': '60' })];
    const started = performance.now();
    const result = await llm({ maxRetryDelayMs: 1000 }).complete(QUESTION);
    expect(result.text).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['429 with Retry-After in seconds', 429, { 'retry-after': '2' }, 2000],
    ['503 with Retry-After in seconds', 503, { 'retry-after': '1' }, 1000],
    ['429 with retry-after-ms', 429, { 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
    ['Retry-After above the cap', 429, { 'retry-after': '3600' }, 5000],
  ])('honours %s', async (_name, code, headers, expected) => {
    const waits: number[] = [];
    responders = [status(code, headers)];
    await llm({ maxRetryDelayMs: 5000, sleep: async (ms) => void waits.push(ms) }).complete(QUESTION);
    expect(waits).toEqual([expected]);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const waits: number[] = [];
    responders = [status(503, { 'retry-after': new Date(Date.now() + 4000).toUTCString() })];
    await llm({ maxRetryDelayMs: 60_000, sleep: async (ms) => void waits.push(ms) }).complete(QUESTION);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(2000);
    expect(waits[0]).toBeLessThanOrEqual(4000);
  });

  it('gives up after maxRetries with a retryable LLM_UNAVAILABLE carrying the server message', async () => {
    responders = [status(500), status(500), status(500, {}, 'CUDA out of memory')];
    const error = await rejection(llm().complete(QUESTION));
    expect(error).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      retryable: true,
      details: { status: 500, attempts: 3 },
    });
    expect(error.message).toBe('chat server answered 500 after 3 attempts: CUDA out of memory');
    expect(server.requests).toHaveLength(3);
  });

  it.each([400, 401, 403, 404])(
    'does not retry %i: LLM_REQUEST_REJECTED with the server message',
    async (code) => {
      responders = [status(code, {}, `Incorrect API key provided: ${KEY}. Check your key.`)];
      const error = await rejection(llm().complete(QUESTION));
      expect(error).toMatchObject({
        code: 'LLM_REQUEST_REJECTED',
        retryable: false,
        details: { status: code },
      });
      expect(error.message).toBe(
        `chat request rejected (${code}): Incorrect API key provided: [redacted]. Check your key.`,
      );
      expectNoKey(error);
      expect(server.requests).toHaveLength(1);
    },
  );

  it.each([
    ['Ollama', { error: 'model "llama9" not found, try pulling it first' }, 'model "llama9" not found'],
    ['vLLM', { object: 'error', message: 'max_tokens is too large', type: 'BadRequestError' }, 'max_tokens'],
  ])('reads the %s error shape', async (_name, body, expected) => {
    responders = [(_request, response) => sendJson(response, 400, body)];
    const error = await rejection(llm().complete(QUESTION));
    expect(error.code).toBe('LLM_REQUEST_REJECTED');
    expect(error.message).toContain(expected);
  });

  it('maps a server that never answers to LLM_UNAVAILABLE after retrying the timeout', async () => {
    responders = [hang, hang];
    const error = await rejection(llm({ timeoutMs: 100, maxRetries: 1 }).complete(QUESTION));
    expect(error).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true, details: { attempts: 2 } });
    expect(error.message).toBe('chat server did not answer within 100 ms (2 attempts)');
    expect(server.requests).toHaveLength(2);
    expectNoKey(error);
  });

  it('times out a server that stalls halfway through the body', async () => {
    responders = [
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"choices":[');
      },
    ];
    const error = await rejection(llm({ timeoutMs: 100, maxRetries: 0 }).complete(QUESTION));
    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.message).toContain('did not answer within 100 ms');
  });

  it('maps an unreachable server to LLM_UNAVAILABLE', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const error = await rejection(llm({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(QUESTION));
    expect(error).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true, details: { attempts: 3 } });
    expect(error.message).toMatch(/^chat server unreachable: .*ECONNREFUSED.* \(3 attempts\)$/);
    expectNoKey(error);
  });

  it.each([
    [
      'a body that is not JSON',
      raw('<html>Bad gateway</html>'),
      'chat server answered 200 with a body that is not JSON',
    ],
    ['no choices', raw('{"object":"chat.completion"}'), 'chat server answered 200 without choices'],
    ['empty choices', raw('{"choices":[]}'), 'chat server answered 200 without choices'],
    [
      'no message',
      raw('{"choices":[{"finish_reason":"stop"}]}'),
      'chat server answered 200 without message content',
    ],
    [
      'null content',
      raw('{"choices":[{"message":{"role":"assistant","content":null}}]}'),
      'chat server answered 200 without message content',
    ],
    [
      'a refusal',
      raw('{"choices":[{"message":{"role":"assistant","content":null,"refusal":"I cannot help"}}]}'),
      'chat server answered 200 with a refusal instead of message content: I cannot help',
    ],
  ])('rejects %s with LLM_UNAVAILABLE and does not retry', async (_name, responder, message) => {
    responders = [responder];
    const error = await rejection(llm().complete(QUESTION));
    expect(error).toMatchObject({ code: 'LLM_UNAVAILABLE', message });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps an empty answer: a model may legitimately say nothing', async () => {
    responders = [answer('', { finishReason: 'length' })];
    expect(await llm().complete(QUESTION)).toMatchObject({ text: '', finishReason: 'length' });
  });

  it('rejects an already-aborted call with ABORTED without sending anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(llm().complete(QUESTION, { signal: controller.signal }));
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('maps a caller abort during the request to ABORTED and does not retry', async () => {
    const controller = new AbortController();
    responders = [() => controller.abort()];
    const error = await rejection(
      llm({ timeoutMs: 10_000 }).complete(QUESTION, { signal: controller.signal }),
    );
    expect(error.code).toBe('ABORTED');
    expect(server.requests).toHaveLength(1);
  });

  it('maps a caller abort while waiting out Retry-After to ABORTED, promptly', async () => {
    const controller = new AbortController();
    responders = [
      (request, response) => {
        status(429, { 'retry-after': '30' })(request, response);
        setTimeout(() => controller.abort(), 50);
      },
    ];
    const started = performance.now();
    const error = await rejection(
      llm({ maxRetryDelayMs: 60_000 }).complete(QUESTION, { signal: controller.signal }),
    );
    expect(error.code).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects an empty conversation as INVALID_INPUT without a request', async () => {
    await expect(llm().complete({ messages: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(server.requests).toHaveLength(0);
  });

  it('logs every call with provider, model, tokens, latency and outcome, never the key', async () => {
    const { logger, entries } = recordingLogger();
    responders = [status(503), answer('fine', { usage: { promptTokens: 5, completionTokens: 2 } })];
    await llm({ logger }).complete(QUESTION);
    responders = [status(401, {}, `bad key ${KEY}`)];
    await rejection(llm({ logger }).complete(QUESTION));

    expect(entries.map((entry) => entry.fields?.outcome)).toEqual(['retry', 'ok', 'rejected']);
    expect(entries[1]!.fields).toMatchObject({
      event: 'llm-call',
      provider: 'openai-compatible',
      model: 'test-chat',
      status: 200,
      promptTokens: 5,
      completionTokens: 2,
      finishReason: 'stop',
    });
    expect(entries[1]!.fields?.latencyMs).toEqual(expect.any(Number));
    expect(JSON.stringify(entries)).not.toContain(KEY);
  });

  it.each([
    ['not a URL', 'not a url'],
    ['credentials in the URL', 'http://user:hunter2@127.0.0.1:1/v1'],
    ['another scheme', 'ftp://127.0.0.1/v1'],
  ])('refuses a base URL that is %s with INVALID_CONFIG', (_name, baseUrl) => {
    let thrown: unknown;
    try {
      new OpenAiChatLlm({ baseUrl, model: 'm' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_CONFIG' });
    expect((thrown as Error).message).not.toContain('hunter2');
  });
});
