import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgenticRagClient, AgenticRagError } from '@agentic-rag/client';
import { createJsonLogger, loadConfig, type RagRuntime, type RagService } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { routeOf } from './request-telemetry.js';
import { handleAnswerStream, KEEP_ALIVE_MS } from './rest/answer-stream.js';
import { REST_ROUTES } from './rest/router.js';
import { createApi } from './server.js';
import {
  readSse,
  startStreamingApi,
  withoutRunIds,
  type Event,
  type StreamingApi,
} from './test-streaming.js';

const QUESTION = 'How do I create a location?';
const STREAM = `subscription Stream($input: RagAnswerInput!) {
  ragAnswerStream(input: $input) {
    type stage status ms text
    citation { index sourceId chunkId title url snippet startOffset endOffset score }
    answer {
      answer refused cached runId traceId corpusVersion
      citations { index sourceId chunkId title url snippet startOffset endOffset score }
      selfCheck { passed citationCoverage unsupportedSentences warnings }
    }
    error { code message retryable }
  }
}`;
const ANSWER = `mutation Answer($input: RagAnswerInput!) {
  ragAnswer(input: $input) {
    answer refused cached runId traceId corpusVersion
    citations { index sourceId chunkId title url snippet startOffset endOffset score }
    selfCheck { passed citationCoverage unsupportedSentences warnings }
  }
}`;

/**
 * The checks every answer stream must pass, whatever its transport: stages open and close in
 * order, the answer's pieces join to the final answer, each citation arrives once, before the
 * first piece that cites it, as the final answer has it, and `final` is the last event.
 */
function expectWellFormed(
  events: Event[],
  textComes: 'after synthesis' | 'after self-check' = 'after synthesis',
) {
  const final = events.at(-1)!;
  expect(final.type).toBe('final');
  expect(events.filter((event) => event.type === 'final')).toHaveLength(1);
  const started = events.filter((event) => event.type === 'stage' && event.status === 'started');
  const finished = events.filter((event) => event.type === 'stage' && event.status === 'finished');
  expect(finished.map((event) => event.stage)).toEqual(started.map((event) => event.stage));
  expect(started.map((event) => event.stage)).toEqual([
    'plan',
    'rewrite',
    'retrieve',
    'quarantine',
    'synthesize',
    'self-check',
  ]);
  for (const event of finished) expect(event.ms).toBeGreaterThanOrEqual(0);

  const deltas = events.filter((event) => event.type === 'delta');
  expect(deltas.length).toBeGreaterThan(0);
  expect(deltas.map((event) => event.text).join('')).toBe(final.answer.answer);
  const citations = events.filter((event) => event.type === 'citation').map((event) => event.citation);
  expect([...citations].sort((left, right) => left.index - right.index)).toEqual(final.answer.citations);
  for (const citation of citations) {
    const at = events.findIndex(
      (event) => event.type === 'citation' && event.citation.index === citation.index,
    );
    const firstMarking = events.findIndex(
      (event) => event.type === 'delta' && event.text.includes(`[${citation.index}]`),
    );
    if (firstMarking < 0) continue;
    // Sent just before the piece that first cites it: only other citations in between.
    expect(at).toBeLessThan(firstMarking);
    expect(events.slice(at, firstMarking).every((event) => event.type === 'citation')).toBe(true);
  }
  const firstText = events.findIndex((event) => event.type === 'delta');
  if (textComes === 'after self-check') {
    // A model's answer is final only once the self-check has kept or replaced it.
    const checked = events.findIndex(
      (event) => event.type === 'stage' && event.stage === 'self-check' && event.status === 'finished',
    );
    expect(firstText).toBeGreaterThan(checked);
    return final.answer;
  }
  // An extractive answer is final once synthesised: its text comes before the self-check starts.
  const synthesized = events.findIndex(
    (event) => event.type === 'stage' && event.stage === 'synthesize' && event.status === 'finished',
  );
  const checking = events.findIndex(
    (event) => event.type === 'stage' && event.stage === 'self-check' && event.status === 'started',
  );
  expect(firstText).toBeGreaterThan(synthesized);
  expect(firstText).toBeLessThan(checking);
  return final.answer;
}

describe('streaming ragAnswer', () => {
  let api: StreamingApi;
  let ws: string;

  beforeAll(async () => {
    api = await startStreamingApi();
    [ws] = api.workspaces as [string];
  }, 180_000);
  afterAll(async () => api?.close());

  it('POST /answer/stream sends stages, then pieces and citations, then the final answer', async () => {
    const response = await api.stream({ workspaceId: ws, query: QUESTION });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const names: string[] = [];
    const events = await readSse(response, (_event, name) => void names.push(name));
    // Each frame is named after its event's type.
    expect(names).toEqual(events.map((event) => event.type));
    const answer = expectWellFormed(events);
    expect(answer.refused).toBe(false);
    expect(answer.citations[0].sourceId).toBe('northwind-logistics/api/openapi.yaml#paths/locations/post');
    // Sentence by sentence, not all at once.
    expect(events.filter((event) => event.type === 'delta').length).toBeGreaterThan(1);
  });

  it('ends with a final event equal to the non-streaming ragAnswer (GraphQL and the service alike)', async () => {
    const events = await readSse(await api.stream({ workspaceId: ws, query: QUESTION, debug: false }));
    const final = events.at(-1)!.answer;
    const caller = await api.service.authenticate(api.authorization);
    const direct = await api.service.answer(caller, { workspaceId: ws, query: QUESTION, debug: false });
    // Two runs differ only in their ids; everything else is the same answer, shape included.
    expect(withoutRunIds(final)).toEqual(withoutRunIds(JSON.parse(JSON.stringify(direct))));
    const graphql = await api.graphql(ANSWER, { input: { workspaceId: ws, query: QUESTION } });
    // GraphQL returns the fields the query selects, each equal to the final event's.
    expect(withoutRunIds(final)).toMatchObject(withoutRunIds(graphql.data.ragAnswer));
    expect(graphql.data.ragAnswer.citations).toHaveLength(final.citations.length);
  });

  it('answers a request refused before the run with the REST error body and its status', async () => {
    const noKey = await api.stream({ workspaceId: ws, query: QUESTION }, { headers: { authorization: '' } });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error_code: 'UNAUTHENTICATED', status_code: 401 });
    const empty = await api.stream({ workspaceId: ws, query: '  ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error_code: 'INVALID_INPUT' });
    const nowhere = await api.stream({ workspaceId: 'no-such-workspace', query: QUESTION });
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({ error_code: 'WORKSPACE_NOT_FOUND' });
    const malformed = await api.stream('{"query":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error_code: 'INVALID_INPUT',
      detail: 'request body is not valid JSON',
    });
    const get = await fetch(`${api.base}/answer/stream`, { headers: { authorization: api.authorization } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('streams through the SDK: client.ragAnswerStream yields the same events, and throws error events', async () => {
    const [apiKey] = api.authorization.split(' ').slice(1);
    const client = new AgenticRagClient({ baseUrl: api.base, apiKey: apiKey!, workspaceId: ws });
    const events: Event[] = [];
    for await (const event of client.ragAnswerStream({ query: QUESTION })) events.push(event);
    const answer = expectWellFormed(events);
    expect(answer.citations[0].sourceId).toBe('northwind-logistics/api/openapi.yaml#paths/locations/post');
    const refused = client.ragAnswerStream({ query: QUESTION, workspaceId: 'no-such-workspace' }).next();
    await expect(refused).rejects.toBeInstanceOf(AgenticRagError);
    await expect(refused).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND', status: 404 });
  });

  it('is described in the OpenAPI document: its body, its event stream and every event type', async () => {
    const document = (await (await fetch(`${api.base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      components: { schemas: Record<string, { oneOf: Array<{ properties: { type: { const: string } } }> }> };
    };
    const operation = document.paths['/answer/stream']!.post;
    expect(operation.requestBody.content['application/json'].schema.required).toEqual(['query']);
    const stream = operation.responses['200'].content['text/event-stream'];
    expect(stream['x-event-schema']).toEqual({ $ref: '#/components/schemas/AnswerStreamEvent' });
    const types = document.components.schemas.AnswerStreamEvent!.oneOf.map(
      (event) => event.properties.type.const,
    );
    expect(types).toEqual(['stage', 'delta', 'citation', 'final', 'error']);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '429', '503']),
    );
    // Every REST route the server answers (the document aside) has its entry.
    expect(Object.keys(document.paths).sort()).toEqual(
      REST_ROUTES.filter((route) => route !== '/openapi.json').sort(),
    );
  });

  it('labels both streaming routes in the request metrics by their own route, not "unmatched"', async () => {
    expect(routeOf('/answer/stream')).toBe('/answer/stream');
    expect(routeOf('/graphql/stream')).toBe('/graphql/stream');
    const count = async (route: string) => {
      const text = await (
        await fetch(`${api.base}/metrics`, { headers: { authorization: api.authorization } })
      ).text();
      const line = text
        .split('\n')
        .find(
          (candidate) =>
            candidate.startsWith('agentic_rag_http_request_duration_seconds_count{') &&
            candidate.includes(`route="${route}"`) &&
            candidate.includes('method="POST"') &&
            candidate.includes('status_code="200"'),
        );
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const before = { rest: await count('/answer/stream'), graphql: await count('/graphql/stream') };
    await readSse(await api.stream({ workspaceId: ws, query: QUESTION }));
    const subscription = await fetch(`${api.base}/graphql/stream`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: api.authorization,
      },
      body: JSON.stringify({ query: STREAM, variables: { input: { workspaceId: ws, query: QUESTION } } }),
    });
    expect(subscription.status).toBe(200);
    await subscription.text();
    // A request's sample is taken when its response closes, just after the client has read it all.
    await expect
      .poll(async () => ({ rest: await count('/answer/stream'), graphql: await count('/graphql/stream') }))
      .toEqual({ rest: before.rest + 1, graphql: before.graphql + 1 });
  });

  describe('GraphQL over Server-Sent Events (/graphql/stream)', () => {
    const subscribe = async (input: Record<string, unknown>, authorization = api.authorization) => {
      const client = createClient({
        url: `${api.base}/graphql/stream`,
        headers: { authorization },
        retryAttempts: 0,
      });
      const events: Event[] = [];
      try {
        for await (const result of client.iterate<{ ragAnswerStream: Event }>({
          query: STREAM,
          variables: { input },
        })) {
          expect(result.errors).toBeUndefined();
          // Fields of other types are null in a RagAnswerEvent: drop them to compare with REST's events.
          events.push(
            Object.fromEntries(
              Object.entries(result.data!.ragAnswerStream).filter(([, value]) => value !== null),
            ) as Event,
          );
        }
      } finally {
        client.dispose();
      }
      return events;
    };

    it('streams the same events as REST, ending with the same answer', async () => {
      const events = await subscribe({ workspaceId: ws, query: QUESTION });
      const answer = expectWellFormed(events);
      const rest = (await readSse(await api.stream({ workspaceId: ws, query: QUESTION }))).at(-1)!.answer;
      // The subscription selects the fields it names (citations without fields added since): a subset.
      expect(withoutRunIds(rest)).toMatchObject(withoutRunIds(answer));
      expect(answer.citations).toHaveLength(rest.citations.length);
    });

    it('ends with an error event carrying a stable code when the answer cannot be given', async () => {
      const events = await subscribe({ workspaceId: 'no-such-workspace', query: QUESTION });
      expect(events).toEqual([
        {
          type: 'error',
          error: {
            code: 'WORKSPACE_NOT_FOUND',
            message: 'workspace "no-such-workspace" does not exist',
            retryable: false,
          },
        },
      ]);
      const conversation = await subscribe({ workspaceId: ws, query: QUESTION, conversationId: 'nope' });
      expect(conversation).toEqual([
        {
          type: 'error',
          error: { code: 'NOT_FOUND', message: 'conversation "nope" does not exist', retryable: false },
        },
      ]);
    });

    it('answers a bad operation with the codes /graphql uses', async () => {
      const client = createClient({
        url: `${api.base}/graphql/stream`,
        headers: { authorization: api.authorization },
        retryAttempts: 0,
      });
      const collect = async (query: string, variables: Record<string, unknown>) => {
        const results = [];
        for await (const result of client.iterate({ query, variables })) results.push(result);
        return results.flatMap((result) => result.errors ?? []).map((error) => error.extensions?.code);
      };
      try {
        // A variable of the wrong shape, a field the schema does not have.
        expect(await collect(STREAM, { input: { workspaceId: ws } })).toEqual(['BAD_USER_INPUT']);
        expect(
          await collect(
            'subscription { ragAnswerStream(input: {query: "x", workspaceId: "y"}) { nope } }',
            {},
          ),
        ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      } finally {
        client.dispose();
      }
    });

    it('is refused without a key, like /graphql', async () => {
      const response = await fetch(`${api.base}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: STREAM, variables: { input: { workspaceId: ws, query: QUESTION } } }),
      });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    });

    it('serves only subscriptions', async () => {
      const client = createClient({
        url: `${api.base}/graphql/stream`,
        headers: { authorization: api.authorization },
        retryAttempts: 0,
      });
      const results = [];
      for await (const result of client.iterate({ query: '{ corpus(workspaceId: "x") { version } }' }))
        results.push(result);
      client.dispose();
      expect(results).toEqual([
        {
          errors: [
            {
              message: '/graphql/stream serves subscriptions; send queries and mutations to /graphql',
              extensions: { code: 'BAD_REQUEST' },
            },
          ],
        },
      ]);
    });
  });
});

/**
 * A model that never answers (a real local HTTP server standing in for the hosted one): the run
 * waits in synthesis until the client goes away. `nextRequest` resolves when the next request
 * arrives, with a promise of that request's connection closing.
 */
async function stallingModel() {
  // A request's closing is wrapped: resolving with a bare promise would wait for it.
  const waiting: Array<(request: { closed: Promise<void> }) => void> = [];
  let reply: string | null = null;
  const server: Server = createServer((request: IncomingMessage, response) => {
    const closed = new Promise<void>((resolve) => request.socket.on('close', () => resolve()));
    waiting.shift()?.({ closed });
    if (reply === null) return;
    const content = reply;
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: 'replying',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nextRequest: () => new Promise<{ closed: Promise<void> }>((resolve) => waiting.push(resolve)),
    /** From now on answer every request with `text` (null: never answer). */
    answerWith: (text: string | null) => {
      reply = text;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** 'closed' when `closed` settles within 10 s; the model's own timeout is 120 s. */
const closedSoon = (closed: Promise<void>) =>
  Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 10_000, 'open'))]);

describe('a deployment with AGENTIC_RAG_ENABLED=false', () => {
  let api: StreamingApi;
  beforeAll(async () => {
    api = await startStreamingApi({ workspaces: 0, env: { AGENTIC_RAG_ENABLED: 'false' } });
  }, 120_000);
  afterAll(async () => api?.close());

  it('refuses to stream answers, like ragAnswer', async () => {
    const rest = await api.stream({ workspaceId: 'demo', query: QUESTION });
    expect(rest.status).toBe(503);
    expect(await rest.json()).toMatchObject({ error_code: 'RAG_DISABLED', status_code: 503 });
    const graphql = await api.graphql(ANSWER, { input: { workspaceId: 'demo', query: QUESTION } });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RAG_DISABLED');
  });
});

describe('a client that disconnects', () => {
  let api: StreamingApi;
  let model: Awaited<ReturnType<typeof stallingModel>>;
  let llmRuntime: RagRuntime;
  let base: string;
  let authorization: string;
  let service: RagService;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    // The corpus is ingested offline; a second API over the same database answers with the model.
    api = await startStreamingApi();
    model = await stallingModel();
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_CACHE: 'false',
      LOG_LEVEL: 'silent',
      RAG_LLM: 'openai',
      RAG_LLM_BASE_URL: model.url,
      RAG_LLM_MODEL: 'stalling',
      RAG_LLM_MAX_RETRIES: '0',
      RAG_LLM_TIMEOUT_MS: '120000',
    });
    llmRuntime = await createRuntime({
      config,
      sql,
      logger: createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) }),
    });
    const access = await serviceWithAdmin(llmRuntime);
    authorization = access.authorization;
    service = access.service;
    const server = await createApi(access.service);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    stop = async () => {
      server.server.closeAllConnections();
      await new Promise((resolve) => server.server.close(resolve));
      await server.stop();
      await llmRuntime.close();
      await sql.close();
    };
  }, 180_000);
  afterAll(async () => {
    await stop?.();
    await model?.close();
    await api?.close();
  });

  it("sends a model's answer only once the self-check has kept or replaced it", async () => {
    model.answerWith(
      'Create a location with POST /locations [1]. The request needs a name and an address [1].',
    );
    try {
      const response = await fetch(`${base}/answer/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ workspaceId: api.workspaces[0], query: QUESTION }),
      });
      const events = await readSse(response);
      const answer = expectWellFormed(events, 'after self-check');
      expect(answer.refused).toBe(false);
    } finally {
      model.answerWith(null);
    }
  });

  it('keeps a waiting stream alive with a comment every keepAliveMs, and stops them when it ends', async () => {
    // The route on a server of its own with a 50 ms interval (production's is KEEP_ALIVE_MS, 15 s):
    // the model stalls, so the stream waits in synthesis and only comments go out.
    expect(KEEP_ALIVE_MS).toBe(15_000);
    const routeServer = createServer((request, response) => {
      void handleAnswerStream(request, response, service, llmRuntime.logger, { keepAliveMs: 50 });
    });
    await new Promise<void>((resolve) => routeServer.listen(0, '127.0.0.1', resolve));
    const abort = new AbortController();
    const modelAsked = model.nextRequest();
    try {
      const response = await fetch(
        `http://127.0.0.1:${(routeServer.address() as AddressInfo).port}/answer/stream`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify({ workspaceId: api.workspaces[0], query: QUESTION }),
          signal: abort.signal,
        },
      );
      expect(response.status).toBe(200);
      const synthesizing = 'event: stage\ndata: {"type":"stage","stage":"synthesize","status":"started"}\n\n';
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      // Three comments after synthesis started: the interval repeats while the run waits.
      while (
        !text.includes(synthesizing) ||
        text.split(synthesizing)[1]!.split(': keep-alive\n\n').length < 4
      ) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended while waiting on the model: ${text}`);
        text += value;
      }
      // Comments sit between frames, never inside one: what follows synthesis is nothing else.
      expect(text.split(synthesizing)[1]!.replaceAll(': keep-alive\n\n', '')).toBe('');
      const { closed } = await modelAsked;
      abort.abort();
      expect(await closedSoon(closed)).toBe('closed');
    } finally {
      routeServer.closeAllConnections();
      await new Promise((resolve) => routeServer.close(resolve));
    }
  });

  it('aborts the run over REST: the request to the model is cancelled', async () => {
    const abort = new AbortController();
    const modelAsked = model.nextRequest();
    const response = await fetch(`${base}/answer/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ workspaceId: api.workspaces[0], query: QUESTION }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    // Read until synthesis starts, wait for the model to be asked, then hang up.
    const events = await readSse(response, (event) => event.type === 'stage' && event.stage === 'synthesize');
    expect(events.at(-1)).toEqual({ type: 'stage', stage: 'synthesize', status: 'started' });
    const { closed } = await modelAsked;
    abort.abort();
    expect(await closedSoon(closed)).toBe('closed');
  });

  it('aborts the run over GraphQL: leaving the subscription cancels the request to the model', async () => {
    const modelAsked = model.nextRequest();
    const client = createClient({
      url: `${base}/graphql/stream`,
      headers: { authorization },
      retryAttempts: 0,
    });
    const seen: string[] = [];
    let closed: Promise<void> | null = null;
    for await (const result of client.iterate<{ ragAnswerStream: Event }>({
      query: STREAM,
      variables: { input: { workspaceId: api.workspaces[0], query: QUESTION } },
    })) {
      const event = result.data!.ragAnswerStream;
      seen.push(`${event.stage}:${event.status}`);
      if (event.stage !== 'synthesize') continue;
      // Hang up once the model has been asked.
      ({ closed } = await modelAsked);
      break;
    }
    client.dispose();
    expect(seen.at(-1)).toBe('synthesize:started');
    expect(await closedSoon(closed!)).toBe('closed');
  });
});
