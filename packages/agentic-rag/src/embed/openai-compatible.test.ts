import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embedderConformance } from './conformance.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible.js';

interface Recorded {
  authorization: string | undefined;
  body: { model: string; input: string[]; dimensions?: number };
}

type Responder = (request: Recorded, response: ServerResponse) => void;

/** A real HTTP server standing in for the hosted embeddings API: the only test double allowed. */
describe('OpenAiCompatibleEmbedder against a local OpenAI-style server', () => {
  let server: Server;
  let baseUrl: string;
  let requests: Recorded[];
  let responders: Responder[];

  const vectorsFor = (inputs: string[], dimensions: number) => ({
    object: 'list',
    // Shuffled on purpose: the API does not promise order, `index` does.
    data: inputs
      .map((text, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from({ length: dimensions }, (_, d) => text.length + d),
      }))
      .reverse(),
    usage: { prompt_tokens: inputs.length * 3, total_tokens: inputs.length * 3 },
  });
  const ok =
    (dimensions = 4): Responder =>
    (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(vectorsFor(request.body.input, dimensions)));
    };
  const status =
    (code: number, headers: Record<string, string> = {}): Responder =>
    (_request, response) => {
      response.writeHead(code, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify({ error: { message: `status ${code}` } }));
    };

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const recorded = {
          authorization: request.headers.authorization,
          body: JSON.parse(raw) as Recorded['body'],
        };
        requests.push(recorded);
        const responder = responders.shift() ?? ok();
        responder(recorded, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = [];
    responders = [];
  });

  const embedder = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleEmbedder>[0]> = {}) =>
    new OpenAiCompatibleEmbedder({
      baseUrl,
      model: 'test-embed',
      dimensions: 4,
      apiKey: 'sk-test',
      batchSize: 2,
      maxRetries: 2,
      sleep: async () => {},
      ...overrides,
    });

  describe('conformance', () => {
    embedderConformance(() => embedder());
  });

  it('batches inputs, sends the key and model, and returns vectors in input order', async () => {
    const result = await embedder().embed({ texts: ['a', 'bb', 'ccc'] });
    expect(requests.map((request) => request.body.input)).toEqual([['a', 'bb'], ['ccc']]);
    expect(requests[0]!.authorization).toBe('Bearer sk-test');
    expect(requests[0]!.body.model).toBe('test-embed');
    expect(result.embeddings).toEqual([
      [1, 2, 3, 4],
      [2, 3, 4, 5],
      [3, 4, 5, 6],
    ]);
    expect(result.tokens).toBe(9);
  });

  it('retries 429 and 5xx, honouring Retry-After, then succeeds', async () => {
    const waits: number[] = [];
    responders = [status(429, { 'retry-after': '2' }), status(503)];
    const result = await embedder({ sleep: async (ms) => void waits.push(ms) }).embed({ texts: ['a'] });
    expect(result.embeddings).toEqual([[1, 2, 3, 4]]);
    expect(requests).toHaveLength(3);
    expect(waits[0]).toBe(2000);
  });

  it('gives up after maxRetries with a retryable EMBEDDER_UNAVAILABLE', async () => {
    responders = [status(500), status(500), status(500)];
    await expect(embedder().embed({ texts: ['a'] })).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      retryable: true,
    });
    expect(requests).toHaveLength(3);
  });

  it('does not retry a 400 or 401: the request itself is wrong', async () => {
    responders = [status(401)];
    await expect(embedder().embed({ texts: ['a'] })).rejects.toMatchObject({
      code: 'EMBEDDER_REQUEST_REJECTED',
      retryable: false,
    });
    expect(requests).toHaveLength(1);
  });

  it('reports a model that returns another dimension than configured', async () => {
    responders = [ok(6)];
    await expect(embedder().embed({ texts: ['a'] })).rejects.toMatchObject({
      code: 'EMBEDDING_DIMENSION_MISMATCH',
      details: { expected: 4, actual: 6 },
    });
  });

  it('asks for the configured dimension when told to', async () => {
    await embedder({ sendDimensions: true }).embed({ texts: ['a'] });
    expect(requests[0]!.body.dimensions).toBe(4);
  });

  it('maps an unreachable server to EMBEDDER_UNAVAILABLE', async () => {
    const closed = new OpenAiCompatibleEmbedder({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'm',
      dimensions: 4,
      maxRetries: 0,
    });
    await expect(closed.embed({ texts: ['a'] })).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
  });
});
