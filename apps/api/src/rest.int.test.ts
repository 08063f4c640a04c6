import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

const TEXTBOOK = fileURLToPath(new URL('../../../simulated_ingestion/textbook', import.meta.url));

interface Reply {
  status: number;
  headers: Headers;
  // The assertions are what check each route's shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** The REST contract over HTTP on the real database, with the sample textbook ingested. */
describe('REST search contract', () => {
  let runtime: RagRuntime;
  let base: string;
  let authorization: string;
  let close: () => Promise<void>;
  const ws = uniqueWorkspace('rest');

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${base}${path}${separator}workspace=${ws}`, {
      method,
      headers: { 'content-type': 'application/json', authorization, ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : null,
    } as Reply;
  };
  const expectError = (reply: Reply, status: number, code: string, detail: string | RegExp) => {
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual({
      detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
      status_code: status,
      error_code: code,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  };

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({ ...process.env, AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' });
    runtime = await createRuntime({ config, sql });
    await runtime.pipeline.ingestSources({ workspaceId: ws, sources: [TEXTBOOK] });
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  }, 120_000);

  afterAll(async () => close());

  describe('POST /search/semantic', () => {
    it('answers with numbered entities, best first, the defining passage as content', async () => {
      const reply = await call('POST', '/search/semantic', { query: 'variable elimination ordering', k: 3 });
      expect(reply.status).toBe(200);
      expect(reply.body.results[0]).toMatchObject({
        id: 'algorithm_3_2',
        type: 'algorithm',
        number: '3.2',
        title: 'Variable elimination',
        chapter: '3',
        section: '3.3',
        page_number: null,
        content: expect.stringContaining('**Algorithm 3.2.**'),
      });
      const scores = reply.body.results.map((result: { score: number }) => result.score);
      expect(scores).toEqual([...scores].sort((left, right) => right - left));
      expect(reply.body.results.length).toBeLessThanOrEqual(3);
      expect(reply.body.total_count).toBeGreaterThanOrEqual(reply.body.results.length);
    });

    it('keeps to the traverse types and filters asked for', async () => {
      const reply = await call('POST', '/search/semantic', {
        query: 'belief update with a particle filter',
        k: 10,
        traverse_types: ['algorithm'],
        filters: { chapter: 19 },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.results.length).toBeGreaterThan(0);
      for (const result of reply.body.results)
        expect(result).toMatchObject({ type: 'algorithm', chapter: '19' });
      const none = await call('POST', '/search/semantic', {
        query: 'belief update',
        filters: { page_number: 12 },
      });
      expect(none.body).toEqual({ results: [], total_count: 0 });
    });

    it('suggests the word the corpus uses for a typo', async () => {
      const reply = await call('POST', '/search/semantic', { query: 'POMP belief update' });
      expect(reply.body.did_you_mean).toBe('POMDP');
      // Whichever chunk brought an algorithm in, its content is the block that defines it.
      for (const result of reply.body.results.filter((found: { type: string }) => found.type === 'algorithm'))
        expect(result.content).toContain(`**Algorithm ${result.number}.**`);
      expect(reply.body.corrections).toEqual([{ from: 'POMP', to: 'POMDP' }]);
    });

    it.each([
      [{ query: 'ab' }, 'query must be at least 3 characters'],
      [{ query: 'belief', k: 0 }, 'k must be between 1 and 20'],
      [{ query: 'belief', k: 21 }, 'k must be between 1 and 20'],
      [{ query: 'belief', k: 2.5 }, 'k must be between 1 and 20'],
      [{ query: 'belief', filters: { x: 1 } }, "filter 'x' is not supported"],
      [{ query: 'belief', filters: { page_number: '3' } }, "filter 'page_number' must be an integer"],
      [
        { query: 'belief', traverse_types: ['lemma'] },
        "traverse_types contains invalid value: 'lemma'. Valid values: [formula, algorithm, table, figure, section, example, exercise, appendix]",
      ],
      [{ query: 'belief', top: 3 }, /^field 'top' is not supported/],
    ])('rejects %j', async (body, detail) => {
      expectError(await call('POST', '/search/semantic', body), 400, 'INVALID_PARAMETER', detail);
    });

    it('rejects a body that is not JSON, and the wrong method', async () => {
      expectError(
        await call('POST', '/search/semantic', '{"query":'),
        400,
        'INVALID_PARAMETER',
        'request body is not valid JSON',
      );
      const wrong = await call('GET', '/search/semantic');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
    });
  });

  describe('POST /search/expand-graph', () => {
    it('expands entities by relation type, and warns about unknown ids', async () => {
      const reply = await call('POST', '/search/expand-graph', {
        document_ids: ['algorithm:3.2', 'algorithm_99_1'],
        traverse_types: ['REFERENCES', 'REFERENCED_BY'],
      });
      expect(reply.status).toBe(200);
      const [document] = reply.body.expanded_documents;
      expect(document).toMatchObject({
        id: 'algorithm_3_2',
        type: 'algorithm',
        content: expect.stringContaining('Algorithm 3.2'),
      });
      expect(document.relationships).toContainEqual({
        type: 'REFERENCES',
        target_id: 'algorithm_2_2',
        target_type: 'algorithm',
      });
      expect(document.relationships).toContainEqual({
        type: 'REFERENCED_BY',
        target_id: 'exercise_3_2',
        target_type: 'exercise',
      });
      expect(
        new Set(document.relationships.map((relationship: { type: string }) => relationship.type)),
      ).toEqual(new Set(['REFERENCES', 'REFERENCED_BY']));
      expect(reply.body.relationship_count).toBe(document.relationships.length);
      expect(reply.body.metadata.warnings).toEqual([
        "document 'algorithm_99_1' is not in the knowledge base",
      ]);
    });

    it('rejects malformed ids and unknown relation types', async () => {
      expectError(
        await call('POST', '/search/expand-graph', { document_ids: ['algorithm 3.2'] }),
        400,
        'INVALID_PARAMETER',
        /^document_ids contains invalid value: 'algorithm 3.2'\. Expected <type>_<number>/,
      );
      expectError(
        await call('POST', '/search/expand-graph', {
          document_ids: ['algorithm_3_2'],
          traverse_types: ['KNOWS'],
        }),
        400,
        'INVALID_PARAMETER',
        "traverse_types contains invalid value: 'KNOWS'. Valid values: [USES_IN, CITES, REFERENCES, RELATED_TO, FOLLOWS, REFERENCED_BY, PART_OF]",
      );
    });
  });

  describe('GET /entity/{entity_type}/{number}', () => {
    it('returns the entity with the ids it references and the ids that cite it', async () => {
      const reply = await call('GET', '/entity/algorithm/3.2');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id: 'algorithm_3_2', title: 'Variable elimination', chapter: '3' });
      expect(reply.body.references).toContain('formula_3_2');
      expect(reply.body.references).toContain('algorithm_2_2');
      expect(reply.body.cited_by).toContain('exercise_3_2');
    });

    it('says which entity is missing, and rejects bad types and numbers', async () => {
      expectError(
        await call('GET', '/entity/algorithm/99.99'),
        404,
        'NOT_FOUND',
        'Algorithm 99.99 not found in knowledge base',
      );
      expectError(
        await call('GET', '/entity/lemma/3.2'),
        400,
        'INVALID_PARAMETER',
        'entity_type must be one of: formula, algorithm, table, figure',
      );
      for (const number of ['three', '3', '3.2.1'])
        expectError(
          await call('GET', `/entity/algorithm/${number}`),
          400,
          'INVALID_PARAMETER',
          'number format invalid. Expected format: X.Y or X.YZ',
        );
      // A path that is not even valid percent-encoding is the client's mistake too, not a 500.
      expectError(
        await call('GET', '/entity/algorithm/%'),
        400,
        'INVALID_PARAMETER',
        'number format invalid. Expected format: X.Y or X.YZ',
      );
    });
  });

  describe('caching', () => {
    it('lets agents cache for a day (search) or a week (entities) and revalidate on the corpus version', async () => {
      const body = { query: 'variable elimination', k: 2 };
      const first = await call('POST', '/search/semantic', body);
      // An answer to a key: the agent may keep it, a shared proxy may not hand it to another key.
      expect(first.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(first.headers.get('vary')).toBe('Authorization');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"rest-[^"]+"$/);
      const again = await call('POST', '/search/semantic', body, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      const entity = await call('GET', '/entity/algorithm/3.2');
      expect(entity.headers.get('cache-control')).toBe('private, max-age=604800');
      expect(entity.headers.get('vary')).toBe('Authorization');

      // A write to the corpus changes the version: the old tag no longer matches.
      await runtime.pipeline.ingestInline(ws, [
        { id: 'notes/extra.md', content: '# Extra\n\nA new note.\n' },
      ]);
      const after = await call('POST', '/search/semantic', body, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
    });

    it('sends no cache headers with an error', async () => {
      const reply = await call('POST', '/search/semantic', { query: 'ab' });
      expect(reply.headers.get('etag')).toBeNull();
      expect(reply.headers.get('cache-control')).toBeNull();
    });
  });

  it('serves its OpenAPI document', async () => {
    const reply = await call('GET', '/openapi.json');
    expect(reply.body.openapi).toBe('3.1.0');
    // The REST contract's three paths first (docs/rest-contract.md); the routes beyond the contract
    // (streaming, admin refresh) follow.
    expect(Object.keys(reply.body.paths).slice(0, 3)).toEqual([
      '/search/semantic',
      '/search/expand-graph',
      '/entity/{entity_type}/{number}',
    ]);
  });

  it('answers an unknown workspace with its code', async () => {
    const response = await fetch(`${base}/entity/algorithm/3.2?workspace=nobody-here`, {
      headers: { authorization },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error_code: string }).error_code).toBe('WORKSPACE_NOT_FOUND');
  });
});
