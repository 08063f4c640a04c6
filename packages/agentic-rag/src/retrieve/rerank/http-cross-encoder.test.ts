import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../../errors/index.js';
import { HttpCrossEncoderReranker } from './http-cross-encoder.js';
import type { RerankCandidate } from './reranker.js';

interface Recorded {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Responder = (request: Recorded, response: ServerResponse) => void;

const json =
  (status: number, body: unknown): Responder =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
// Never answers: the client has to give up on its own.
const silent: Responder = () => {};

const candidates = (...texts: string[]): RerankCandidate[] =>
  texts.map((text, index) => ({ id: index + 1, text, title: null, sectionPath: '', fusedScore: 0 }));

async function rejection(promise: Promise<unknown>): Promise<RagError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RagError);
  return error as RagError;
}

/** A real HTTP server standing in for a hosted TEI reranker: the only test double allowed. */
describe('HttpCrossEncoderReranker against a local TEI-style server', () => {
  let server: Server;
  let baseUrl: string;
  let requests: Recorded[];
  let responders: Responder[];

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const recorded: Recorded = {
          method: request.method,
          url: request.url,
          contentType: request.headers['content-type'],
          body: JSON.parse(raw) as unknown,
        };
        requests.push(recorded);
        (responders.shift() ?? json(200, []))(recorded, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = [];
    responders = [];
  });

  const reranker = (timeoutMs?: number) =>
    new HttpCrossEncoderReranker({ baseUrl: `${baseUrl}/`, ...(timeoutMs ? { timeoutMs } : {}) });

  it('is named http-cross-encoder', () => {
    expect(reranker().name).toBe('http-cross-encoder');
  });

  it('POSTs {query, texts, truncate: true} to /rerank', async () => {
    responders.push(
      json(200, [
        { index: 0, score: 0.5 },
        { index: 1, score: 0.1 },
      ]),
    );
    await reranker().rerank({ query: 'What does POST /locations do?', candidates: candidates('one', 'two') });
    expect(requests).toEqual([
      {
        method: 'POST',
        // The trailing slash of the base URL is dropped, not doubled.
        url: '/rerank',
        contentType: 'application/json',
        body: { query: 'What does POST /locations do?', texts: ['one', 'two'], truncate: true },
      },
    ]);
  });

  it('appends /rerank to a base URL with a path', async () => {
    responders.push(json(200, [{ index: 0, score: 1 }]));
    await new HttpCrossEncoderReranker({ baseUrl: `${baseUrl}/tei` }).rerank({
      query: 'q',
      candidates: candidates('one'),
    });
    expect(requests.map((request) => request.url)).toEqual(['/tei/rerank']);
  });

  it('returns scores in candidate order when the server answers sorted by score', async () => {
    responders.push(
      json(200, [
        { index: 2, score: 0.93 },
        { index: 0, score: 0.41 },
        { index: 1, score: -2.5 },
      ]),
    );
    const result = await reranker().rerank({ query: 'q', candidates: candidates('a', 'b', 'c') });
    expect(result).toEqual({ scores: [0.41, -2.5, 0.93] });
  });

  it('sends no request for no candidates', async () => {
    expect(await reranker().rerank({ query: 'q', candidates: [] })).toEqual({ scores: [] });
    expect(requests).toEqual([]);
  });

  it.each([400, 413, 500, 503])('turns HTTP %i into RERANKER_UNAVAILABLE', async (status) => {
    responders.push(json(status, { error: 'overloaded' }));
    const error = await rejection(reranker().rerank({ query: 'q', candidates: candidates('a') }));
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
    expect(error.message).toBe(`reranker answered ${status}`);
    expect(error.details).toEqual({ status });
  });

  it.each<[string, unknown]>([
    ['a missing index', [{ index: 0, score: 0.4 }]],
    [
      'an index out of range',
      [
        { index: 0, score: 0.4 },
        { index: 2, score: 0.1 },
      ],
    ],
    [
      'a score that is not a number',
      [
        { index: 0, score: 0.4 },
        { index: 1, score: '0.1' },
      ],
    ],
  ])('turns %s into RERANKER_UNAVAILABLE', async (_name, body) => {
    responders.push(json(200, body));
    const error = await rejection(reranker().rerank({ query: 'q', candidates: candidates('a', 'b') }));
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
    expect(error.message).toBe('reranker did not score every candidate');
  });

  it('turns a body that is not a list into RERANKER_UNAVAILABLE', async () => {
    responders.push(json(200, { error: 'no' }));
    const error = await rejection(reranker().rerank({ query: 'q', candidates: candidates('a') }));
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
    expect(error.message).toBe('reranker answered with no result list');
  });

  it('skips a null entry in the result list instead of crashing on it', async () => {
    responders.push(json(200, [null, { index: 0, score: 0.4 }]));
    expect(await reranker().rerank({ query: 'q', candidates: candidates('a') })).toEqual({ scores: [0.4] });
    responders.push(json(200, [null, { index: 0, score: 0.4 }]));
    const error = await rejection(reranker().rerank({ query: 'q', candidates: candidates('a', 'b') }));
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
  });

  it('turns an unreachable server into RERANKER_UNAVAILABLE', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejection(
      new HttpCrossEncoderReranker({ baseUrl: `http://127.0.0.1:${port}` }).rerank({
        query: 'q',
        candidates: candidates('a'),
      }),
    );
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
    expect(error.message).toMatch(/^reranker unreachable: /);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('gives up after timeoutMs with RERANKER_UNAVAILABLE', async () => {
    responders.push(silent);
    const started = performance.now();
    const error = await rejection(reranker(200).rerank({ query: 'q', candidates: candidates('a') }));
    expect(error.code).toBe(ErrorCode.RERANKER_UNAVAILABLE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
  });

  it("reports the caller's abort as ABORTED", async () => {
    responders.push(silent);
    const controller = new AbortController();
    const pending = reranker().rerank({ query: 'q', candidates: candidates('a'), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(pending);
    expect(error.code).toBe(ErrorCode.ABORTED);
  });
});
