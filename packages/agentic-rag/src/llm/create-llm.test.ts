import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSchema, type Config } from '../config/index.js';
import {
  startChatServer,
  sendJson,
  chatCompletion,
  type ChatHandler,
  type ChatServer,
} from './chat-test-server.js';
import { createLlm } from './create-llm.js';
import { OpenAiChatLlm } from './openai-chat.js';

const KEY = 'sk-create-llm-secret';
const QUESTION = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** A real Config, parsed by the schema but without loadConfig's cross-field checks. */
const configOf = (env: Record<string, string>): Config => configSchema.parse(env);

describe('createLlm', () => {
  let server: ChatServer;
  let responders: ChatHandler[];
  // A tiny retry-after-ms keeps the default backoff (250 ms and up) out of the test's runtime.
  const unavailable: ChatHandler = (_request, response) =>
    sendJson(response, 503, { error: { message: 'loading model' } }, { 'retry-after-ms': '1' });

  beforeAll(async () => {
    server = await startChatServer((request, response) =>
      (responders.shift() ?? ((_r, reply) => sendJson(reply, 200, chatCompletion({ content: 'hello' }))))(
        request,
        response,
      ),
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    responders = [];
  });

  const openai = (extra: Record<string, string> = {}) =>
    configOf({ RAG_LLM: 'openai', RAG_LLM_BASE_URL: server.url, RAG_LLM_MODEL: 'qwen2.5:7b', ...extra });

  it('returns null when RAG_LLM=offline, the default', () => {
    expect(createLlm(configOf({}))).toBeNull();
    expect(createLlm(configOf({ RAG_LLM: 'offline', RAG_LLM_BASE_URL: server.url }))).toBeNull();
  });

  it('builds an OpenAiChatLlm that talks to RAG_LLM_BASE_URL with RAG_LLM_MODEL and the key', async () => {
    const llm = createLlm(openai({ RAG_LLM_API_KEY: KEY }));
    expect(llm).toBeInstanceOf(OpenAiChatLlm);
    expect(llm!.modelId).toBe('openai-compatible:qwen2.5:7b');

    const result = await llm!.complete(QUESTION);
    expect(result.text).toBe('hello');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.body?.model).toBe('qwen2.5:7b');
  });

  it('sends no Authorization header when RAG_LLM_API_KEY is empty', async () => {
    await createLlm(openai({ RAG_LLM_API_KEY: '' }))!.complete(QUESTION);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('retries twice by default', async () => {
    responders = [unavailable, unavailable, unavailable];
    await expect(createLlm(openai())!.complete(QUESTION)).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      details: { attempts: 3 },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('passes maxRetries and timeoutMs through', async () => {
    responders = [unavailable, unavailable];
    const llm = createLlm(openai(), { maxRetries: 1, timeoutMs: 100 })!;
    await expect(llm.complete(QUESTION)).rejects.toMatchObject({ details: { attempts: 2 } });
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    responders = [() => {}];
    const noRetry = createLlm(openai(), { maxRetries: 0, timeoutMs: 100 })!;
    await expect(noRetry.complete(QUESTION)).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: 'chat server did not answer within 100 ms (1 attempt)',
    });
  });

  it.each([
    ['RAG_LLM_BASE_URL', { RAG_LLM_MODEL: 'm' }, ['RAG_LLM_BASE_URL']],
    ['RAG_LLM_MODEL', { RAG_LLM_BASE_URL: 'http://127.0.0.1:1' }, ['RAG_LLM_MODEL']],
    ['both', {}, ['RAG_LLM_BASE_URL', 'RAG_LLM_MODEL']],
  ])('names the missing variable (%s) in an INVALID_CONFIG error', (_name, extra, variables) => {
    const config = configOf({ RAG_LLM: 'openai', RAG_LLM_API_KEY: KEY, ...extra });
    let thrown: unknown;
    try {
      createLlm(config);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_CONFIG', details: { variables } });
    const message = (thrown as Error).message;
    for (const variable of variables)
      expect(message).toContain(`${variable} is required when RAG_LLM=openai`);
    expect(message).not.toContain(KEY);
  });
});
