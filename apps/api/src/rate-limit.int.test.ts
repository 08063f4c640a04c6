import type { AddressInfo } from 'node:net';
import { createRateLimiter, loadConfig, RagService, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { createApi } from './server.js';

/** The per-key token bucket as a client meets it: 429, RATE_LIMITED and Retry-After, per key. */
describe('rate limits over HTTP', () => {
  let runtime: RagRuntime;
  let base: string;
  let close: () => Promise<void>;
  const ws = uniqueWorkspace('limits');
  const keys: string[] = [];

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({ ...process.env, AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' });
    runtime = await createRuntime({ config, sql });
    await runtime.pipeline.ingestInline(ws, [{ id: 'notes/a.md', content: '# A\n\nDock seven is cold.\n' }]);
    // A bucket of two that refills once a minute: the third request inside a minute is refused.
    const service = new RagService(runtime, { limiter: createRateLimiter({ perSecond: 1 / 60, burst: 2 }) });
    for (let index = 0; index < 4; index++)
      keys.push((await service.keys.create({ workspaceId: ws, role: 'reader', label: 'limits' })).key);
    const api = await createApi(service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await service.close();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => close());

  const corpus = (key: string) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: `{ corpus(workspaceId: "${ws}") { documents } }` }),
    });

  it('refuses a key past its burst with 429, RATE_LIMITED and Retry-After; other keys are unaffected', async () => {
    const [first, second] = keys as [string, string];
    expect((await corpus(first)).status).toBe(200);
    expect((await corpus(first)).status).toBe(200);
    const refused = await corpus(first);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });

    const rest = await fetch(`${base}/entity/algorithm/3.2?workspace=${ws}`, {
      headers: { authorization: `Bearer ${first}` },
    });
    expect(rest.status).toBe(429);
    expect(await rest.json()).toMatchObject({ error_code: 'RATE_LIMITED', status_code: 429 });

    expect((await corpus(second)).status).toBe(200);
  });

  const post = (path: string, key: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        // Apollo answers an event-stream-only accept with 406; the streaming routes want it.
        accept: path === '/graphql' ? 'application/json' : 'text/event-stream',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify(body),
    });
  const question = { workspaceId: ws, query: 'Which dock is cold?' };
  const ragAnswer = (key: string) =>
    post('/graphql', key, {
      query: 'mutation($input: RagAnswerInput!) { ragAnswer(input: $input) { answer } }',
      variables: { input: question },
    });
  const restStream = (key: string) => post('/answer/stream', key, question);
  const graphqlStream = (key: string) =>
    post('/graphql/stream', key, {
      query: 'subscription($input: RagAnswerInput!) { ragAnswerStream(input: $input) { type } }',
      variables: { input: question },
    });

  it('counts both streaming routes against the bucket ragAnswer draws on, and refuses them alike', async () => {
    const [, , third, fourth] = keys as [string, string, string, string];
    // ragAnswer takes the first token, a REST stream the second: the third request is refused.
    expect((await ragAnswer(third)).status).toBe(200);
    const streamed = await restStream(third);
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain('event: final\n');
    const refused = await restStream(third);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error_code: 'RATE_LIMITED', status_code: 429 });
    const subscription = await graphqlStream(third);
    expect(subscription.status).toBe(429);
    expect(Number(subscription.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await subscription.json()).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });

    // The other way round: two subscriptions spend a key's burst, and ragAnswer is refused after them.
    for (let index = 0; index < 2; index++) {
      const allowed = await graphqlStream(fourth);
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('"type":"final"');
    }
    const answer = await ragAnswer(fourth);
    expect(answer.status).toBe(429);
    expect(await answer.json()).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
  });
});
