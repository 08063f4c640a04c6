import type { AddressInfo } from 'node:net';
import { loadConfig, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

/**
 * `minCorpusVersion` (GraphQL search and ragAnswer) and `min_corpus_version` (REST search): the
 * token a write's result carries, passed back to read that write on any API process. Here on one
 * database without a replica, so what is checked is the plumbing and the validation; the routing
 * over a real replica is packages/agentic-rag/src/db/replica/replica.int.test.ts.
 */
describe('minCorpusVersion on every read transport', () => {
  const ws = uniqueWorkspace('min-version');
  let runtime: RagRuntime;
  let base: string;
  let authorization: string;
  let close: () => Promise<void>;
  let version: number;

  const graphql = async (query: string, variables: unknown) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      // The assertions are what check each shape.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      data?: Record<string, any> | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    };
  };
  const rest = async (minCorpusVersion: string) => {
    const response = await fetch(
      `${base}/search/semantic?workspace=${ws}&min_corpus_version=${encodeURIComponent(minCorpusVersion)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query: 'algorithm marker' }),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const SEARCH = `query Search($input: SearchInput!) { search(input: $input) { hits { sourceId } } }`;
  const ANSWER = `mutation Answer($input: RagAnswerInput!) { ragAnswer(input: $input) { corpusVersion refused } }`;

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      AGENTIC_RAG_CACHE: 'false',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql });
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(sql, ws);
      await runtime.close();
      await sql.close();
    };
    const ingested = await graphql(
      `mutation { ingestDocuments(input: {workspaceId: "${ws}", documents: [{id: "notes/marker.md", content: "# Marker\\n\\nThe word zyxmarker is in this note."}]}) { summary { corpusVersion } } }`,
      {},
    );
    version = ingested.data!.ingestDocuments.summary.corpusVersion;
  });

  afterAll(async () => {
    await close?.();
  });

  it('reads a write with the version its result carried', async () => {
    expect(version).toBeGreaterThan(0);
    const found = await graphql(SEARCH, {
      input: { workspaceId: ws, query: 'zyxmarker', minCorpusVersion: version },
    });
    expect(found.data!.search.hits.map((hit: { sourceId: string }) => hit.sourceId)).toContain(
      'notes/marker.md',
    );
    const answered = await graphql(ANSWER, {
      input: { workspaceId: ws, query: 'Which word is in the marker note?', minCorpusVersion: version },
    });
    expect(answered.data!.ragAnswer.corpusVersion).toBe(version);
    expect((await rest(String(version))).status).toBe(200);
  });

  it.each([-1, -100])('refuses minCorpusVersion %s with BAD_USER_INPUT (INVALID_INPUT)', async (bad) => {
    for (const [query, field] of [
      [SEARCH, 'search'],
      [ANSWER, 'ragAnswer'],
    ] as const) {
      const result = await graphql(query, {
        input: { workspaceId: ws, query: 'zyxmarker', minCorpusVersion: bad },
      });
      expect(result.errors![0]).toMatchObject({
        message: 'minCorpusVersion must be an integer from 0 to 9007199254740991',
        extensions: { code: 'BAD_USER_INPUT' },
      });
      expect(result.data?.[field] ?? null).toBeNull();
    }
  });

  it.each(['-1', 'abc', '1.5', ''])(
    'refuses min_corpus_version=%j on REST with 400 INVALID_INPUT',
    async (bad) => {
      const reply = await rest(bad);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        error_code: 'INVALID_INPUT',
        detail: 'min_corpus_version must be an integer from 0 to 9007199254740991',
      });
    },
  );
});
