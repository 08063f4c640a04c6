import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, RagService, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePdf } from '../../../../packages/agentic-rag/src/ingest/loaders/pdf-writer.test-support.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { createApi } from '../server.js';

const TEXTBOOK = fileURLToPath(new URL('../../../../simulated_ingestion/textbook', import.meta.url));

/**
 * The REST contract's examples name Table 5.1 and Figure 7.2, which the sample textbook does not
 * have. Table 5.1 comes in a two-page PDF (its caption on page 2), which the PDF loader pages;
 * Figure 7.2 in a Markdown page whose front matter says which printed page it is.
 */
async function inventoryPdf(): Promise<Uint8Array> {
  return writePdf([
    [
      { text: 'Chapter 5: Inventory Control', y: 720, size: 20, font: 'bold' },
      { text: '5.1 Demand', y: 690, size: 14, font: 'bold' },
      { text: 'Stocking decisions for spare parts depend on the weekly demand for each part.', y: 660 },
      { text: 'We estimate its mean and deviation from a year of depot records.', y: 646 },
    ],
    [
      { text: 'Table 5.1. Demand statistics for three spare parts', y: 640 },
      { text: 'Part', y: 620 },
      { text: 'Mean', x: 220, y: 620 },
      { text: 'Deviation', x: 360, y: 620 },
      { text: 'Belt', y: 606 },
      { text: '12.4', x: 220, y: 606 },
      { text: '3.1', x: 360, y: 606 },
      { text: 'Roller', y: 592 },
      { text: '7.9', x: 220, y: 592 },
      { text: '2.6', x: 360, y: 592 },
    ],
  ]);
}
const WAREHOUSE_PAGE = {
  id: 'supplement/warehouse-network.md',
  content: `---
page_number: 212
---
# Warehouse Network

**Figure 7.2.** Warehouse network diagram: two regional depots supply six stores; arcs are
labelled with lead times in days.
`,
};

const TRAVERSE_TYPES = [
  'formula',
  'algorithm',
  'table',
  'figure',
  'section',
  'example',
  'exercise',
  'appendix',
];
const RELATION_TYPES = [
  'USES_IN',
  'CITES',
  'REFERENCES',
  'RELATED_TO',
  'FOLLOWS',
  'REFERENCED_BY',
  'PART_OF',
];
/** `formula_3_2`, `table_A_1`, `chapter_3`: the REST contract's id form (chunks would be 32 hex digits). */
const ENTITY_ID = /^[a-z]+_([A-Z]|\d+)(_\d+)*$/;
const RESULT_KEYS = [
  'chapter',
  'content',
  'id',
  'number',
  'page_number',
  'score',
  'section',
  'title',
  'type',
];
const ENTITY_KEYS = [
  'chapter',
  'cited_by',
  'content',
  'id',
  'number',
  'page_number',
  'references',
  'section',
  'title',
  'type',
];

interface Reply {
  status: number;
  headers: Headers;
  // Each test checks the shape field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Every example of the REST integration design document (docs/rest-contract.md), replayed over
 * HTTP by a client that knows only that document: no API key (AGENTIC_RAG_AUTH=off, as on a
 * developer's loopback) and no `?workspace=` (the server's AGENTIC_RAG_WORKSPACE). Field names,
 * types, statuses and messages are checked to the letter.
 */
describe('003 REST contract, to the letter', () => {
  let runtime: RagRuntime;
  let base: string;
  let close: () => Promise<void>;
  let pdfFolder: string;
  const ws = uniqueWorkspace('c003');

  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
  /** The contract's error format, exactly: `{detail, status_code, error_code, timestamp}`. */
  const expectError = (reply: Reply, status: number, code: string, detail: string) => {
    expect(reply.status).toBe(status);
    expect(Object.keys(reply.body).sort()).toEqual(['detail', 'error_code', 'status_code', 'timestamp']);
    expect(reply.body).toMatchObject({ detail, status_code: status, error_code: code });
    expect(new Date(reply.body.timestamp).toISOString()).toBe(reply.body.timestamp);
    expect(reply.headers.get('cache-control')).toBeNull();
  };
  const expectResult = (result: Record<string, unknown>) => {
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result.id).toMatch(ENTITY_ID);
    expect(TRAVERSE_TYPES).toContain(result.type);
    expect(result.id).toMatch(new RegExp(`^${String(result.type)}_`));
    for (const field of ['content', 'number', 'title', 'chapter'] as const)
      expect(typeof result[field]).toBe('string');
    expect(result.id).toBe(`${String(result.type)}_${String(result.number).replace(/\./g, '_')}`);
    expect(result.section === null || typeof result.section === 'string').toBe(true);
    expect(result.page_number === null || Number.isInteger(result.page_number)).toBe(true);
    expect(typeof result.score).toBe('number');
  };
  const expectSearch = (reply: Reply, k: number) => {
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(Array.isArray(reply.body.results)).toBe(true);
    expect(Number.isInteger(reply.body.total_count)).toBe(true);
    expect(reply.body.results.length).toBe(Math.min(k, reply.body.total_count));
    reply.body.results.forEach(expectResult);
    const scores = reply.body.results.map((result: { score: number }) => result.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  };

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_AUTH: 'off',
      AGENTIC_RAG_WORKSPACE: ws,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql });
    pdfFolder = await mkdtemp(path.join(os.tmpdir(), 'rest-003-'));
    await writeFile(path.join(pdfFolder, 'inventory-control.pdf'), await inventoryPdf());
    const ingested = await runtime.pipeline.ingestSources({
      workspaceId: ws,
      sources: [TEXTBOOK, pdfFolder],
    });
    expect(ingested.failures).toEqual([]);
    await runtime.pipeline.ingestInline(ws, [WAREHOUSE_PAGE]);
    const api = await createApi(new RagService(runtime, { limiter: null }));
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
      await rm(pdfFolder, { recursive: true, force: true });
    };
  }, 180_000);

  afterAll(async () => close());

  describe('POST /search/semantic', () => {
    it.each([
      'POMDP belief state update algorithm',
      'inventory control (s,S) policy',
      'CVaR tail risk assessment',
      'Bayesian parameter estimation for demand',
    ])('answers the query example %j with k defaulting to 5', async (query) => {
      const reply = await call('POST', '/search/semantic', { query });
      expectSearch(reply, 5);
      expect(Object.keys(reply.body)).toEqual(expect.arrayContaining(['results', 'total_count']));
    });

    it('finds what the examples ask for', async () => {
      const pomdp = await call('POST', '/search/semantic', { query: 'POMDP belief state update algorithm' });
      expect(pomdp.body.results.map((result: { id: string }) => result.id)).toContain('algorithm_19_2');
      const bayes = await call('POST', '/search/semantic', {
        query: 'Bayesian parameter estimation for demand',
      });
      expect(bayes.body.results.some((result: { chapter: string }) => result.chapter === '4')).toBe(true);
    });

    it('takes the request body with every field: k, traverse_types and filters', async () => {
      const reply = await call('POST', '/search/semantic', {
        query: 'demand statistics',
        k: 20,
        traverse_types: ['formula', 'algorithm', 'table'],
        filters: { chapter: '5', section: '5.1', page_number: 2 },
      });
      expectSearch(reply, 20);
      expect(reply.body.results).toEqual([
        expect.objectContaining({
          id: 'table_5_1',
          type: 'table',
          number: '5.1',
          title: 'Demand statistics for three spare parts',
          chapter: '5',
          section: '5.1',
          page_number: 2,
          content: expect.stringMatching(/\| *Belt *\| *12\.4 *\| *3\.1 *\|/),
        }),
      ]);
      expect(reply.body.total_count).toBe(1);
      const elsewhere = await call('POST', '/search/semantic', {
        query: 'demand statistics',
        filters: { page_number: 1 },
      });
      expect(elsewhere.body.results.map((result: { id: string }) => result.id)).toContain('section_5_1');
      for (const result of elsewhere.body.results) expect(result.page_number).toBe(1);
    });

    it('reads a null optional field as an absent one', async () => {
      const reply = await call('POST', '/search/semantic', {
        query: 'belief update',
        k: null,
        traverse_types: null,
        filters: { chapter: null, section: null, page_number: null },
      });
      expectSearch(reply, 5);
    });

    it('keeps k from 1 to 20', async () => {
      expectSearch(await call('POST', '/search/semantic', { query: 'belief update', k: 1 }), 1);
      expectSearch(await call('POST', '/search/semantic', { query: 'belief update', k: 20 }), 20);
    });

    it.each(TRAVERSE_TYPES)('accepts the traverse type %s and answers only with it', async (type) => {
      const reply = await call('POST', '/search/semantic', {
        query: 'value iteration on the dock MDP',
        k: 20,
        traverse_types: [type],
      });
      expectSearch(reply, 20);
      for (const result of reply.body.results) {
        expect(result.type).toBe(type);
        if (type === 'section') expect(result.section).toBe(result.number);
      }
    });

    it('suggests POMDP for POMP', async () => {
      const reply = await call('POST', '/search/semantic', { query: 'POMP belief state update algorithm' });
      expect(reply.status).toBe(200);
      expect(reply.body.did_you_mean).toBe('POMDP');
      reply.body.results.forEach(expectResult);
    });

    it.each([
      [{ query: '' }, 'query must be at least 3 characters'],
      [{ query: 'ab' }, 'query must be at least 3 characters'],
      [{ query: 'belief', k: 0 }, 'k must be between 1 and 20'],
      [{ query: 'belief', k: 21 }, 'k must be between 1 and 20'],
      [{ query: 'belief', k: '5' }, 'k must be between 1 and 20'],
      [
        { query: 'belief', traverse_types: ['invalid_type'] },
        "traverse_types contains invalid value: 'invalid_type'. Valid values: [formula, algorithm, table, figure, section, example, exercise, appendix]",
      ],
      [{ query: 'belief', filters: { invalid_key: 'x' } }, "filter 'invalid_key' is not supported"],
      [{ query: 'belief', filters: { page_number: '87' } }, "filter 'page_number' must be an integer"],
    ])('answers %j with 400 INVALID_PARAMETER', async (body, detail) => {
      expectError(await call('POST', '/search/semantic', body), 400, 'INVALID_PARAMETER', detail);
    });
  });

  describe('POST /search/expand-graph', () => {
    const expectExpansion = (reply: Reply) => {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('private, max-age=86400');
      let relationships = 0;
      for (const document of reply.body.expanded_documents) {
        expect(Object.keys(document).sort()).toEqual(['content', 'id', 'relationships', 'type']);
        expect(document.id).toMatch(ENTITY_ID);
        expect(typeof document.type).toBe('string');
        expect(typeof document.content).toBe('string');
        for (const relationship of document.relationships) {
          expect(Object.keys(relationship).sort()).toEqual(['target_id', 'target_type', 'type']);
          expect(RELATION_TYPES).toContain(relationship.type);
          expect(relationship.target_id).toMatch(new RegExp(`^${relationship.target_type}_`));
          relationships++;
        }
      }
      expect(reply.body.relationship_count).toBe(relationships);
    };

    it("expands the request example's ids, formula_3_2 and algo_4_1", async () => {
      const reply = await call('POST', '/search/expand-graph', {
        document_ids: ['formula_3_2', 'algo_4_1'],
        traverse_types: ['USES_IN', 'CITES'],
      });
      expectExpansion(reply);
      expect(reply.body.expanded_documents.map((document: { id: string }) => document.id)).toEqual([
        'formula_3_2',
        'algorithm_4_1',
      ]);
      const [formula] = reply.body.expanded_documents;
      expect(formula).toMatchObject({ type: 'formula', content: expect.stringContaining('(3.2)') });
      // "Formula used in algorithm": Algorithm 3.2 (variable elimination) uses Equation 3.2.
      expect(formula.relationships).toContainEqual({
        type: 'USES_IN',
        target_id: 'algorithm_3_2',
        target_type: 'algorithm',
      });
      expect(reply.body.metadata.warnings).toEqual([]);
    });

    it.each(RELATION_TYPES)('traverses %s', async (type) => {
      const reply = await call('POST', '/search/expand-graph', {
        document_ids: ['algorithm_3_2', 'formula_3_2', 'section_3_3', 'exercise_3_2'],
        traverse_types: [type],
      });
      expectExpansion(reply);
      const types = reply.body.expanded_documents.flatMap((document: { relationships: { type: string }[] }) =>
        document.relationships.map((relationship) => relationship.type),
      );
      // RELATED_TO reads the graph's RELATED edges; the offline extractors write those only between
      // concepts, which have no number, so the sample textbook has none between numbered entities.
      if (type !== 'RELATED_TO') expect(types.length).toBeGreaterThan(0);
      for (const found of types) expect(found).toBe(type);
    });

    it('answers unknown but well-formed ids with what it found and a warning in metadata', async () => {
      const reply = await call('POST', '/search/expand-graph', {
        document_ids: ['algo_3_2', 'algo_99_1', 'formula_99_9'],
      });
      expectExpansion(reply);
      expect(reply.body.expanded_documents.map((document: { id: string }) => document.id)).toEqual([
        'algorithm_3_2',
      ]);
      expect(reply.body.metadata.warnings).toEqual([
        "document 'algo_99_1' is not in the knowledge base",
        "document 'formula_99_9' is not in the knowledge base",
      ]);
    });

    it('accepts the ids search answers with, and the earlier type:number form', async () => {
      const search = await call('POST', '/search/semantic', { query: 'variable elimination', k: 3 });
      const ids = search.body.results.map((result: { id: string }) => result.id);
      const reply = await call('POST', '/search/expand-graph', { document_ids: [...ids, 'algorithm:3.2'] });
      expectExpansion(reply);
      expect(reply.body.metadata.warnings).toEqual([]);
      expect(new Set(reply.body.expanded_documents.map((document: { id: string }) => document.id))).toEqual(
        new Set([...ids, 'algorithm_3_2']),
      );
    });

    it('expands a chunk id to the numbered entities the passage mentions', async () => {
      const { rows } = await runtime.sql.query<{ chunk_id: string }>(
        `SELECT chunk_id FROM rag_chunks WHERE workspace_id = $1 AND text LIKE '%**Algorithm 3.2.**%'`,
        [ws],
      );
      const chunkId = rows[0]!.chunk_id;
      const unknown = '0'.repeat(32);
      const reply = await call('POST', '/search/expand-graph', { document_ids: [chunkId, unknown] });
      expect(reply.status).toBe(200);
      const [chunk] = reply.body.expanded_documents;
      expect(chunk).toMatchObject({
        id: chunkId,
        type: 'chunk',
        content: expect.stringContaining('**Algorithm 3.2.**'),
      });
      expect(chunk.relationships).toContainEqual({
        type: 'REFERENCES',
        target_id: 'algorithm_3_2',
        target_type: 'algorithm',
      });
      expect(reply.body.relationship_count).toBe(chunk.relationships.length);
      expect(reply.body.metadata.warnings).toEqual([`document '${unknown}' is not in the knowledge base`]);
    });

    it('rejects a malformed id with 400 INVALID_PARAMETER', async () => {
      expectError(
        await call('POST', '/search/expand-graph', { document_ids: ['formula 3.2'] }),
        400,
        'INVALID_PARAMETER',
        "document_ids contains invalid value: 'formula 3.2'. Expected <type>_<number> (algorithm_3_2, formula_16_4, table_A_1) or a chunk id",
      );
      expectError(
        await call('POST', '/search/expand-graph', {
          document_ids: ['formula_3_2'],
          traverse_types: ['KNOWS'],
        }),
        400,
        'INVALID_PARAMETER',
        "traverse_types contains invalid value: 'KNOWS'. Valid values: [USES_IN, CITES, REFERENCES, RELATED_TO, FOLLOWS, REFERENCED_BY, PART_OF]",
      );
    });
  });

  describe('GET /entity/{entity_type}/{number}', () => {
    const expectEntity = (reply: Reply, type: string, number: string) => {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('private, max-age=604800');
      expect(Object.keys(reply.body).sort()).toEqual(ENTITY_KEYS);
      expect(reply.body).toMatchObject({ id: `${type}_${number.replace('.', '_')}`, type, number });
      for (const field of ['title', 'content', 'chapter', 'section'])
        expect(typeof reply.body[field]).toBe('string');
      for (const field of ['references', 'cited_by']) {
        expect(Array.isArray(reply.body[field])).toBe(true);
        for (const id of reply.body[field]) expect(id).toMatch(ENTITY_ID);
      }
    };

    it('GET /entity/algorithm/3.2', async () => {
      const reply = await call('GET', '/entity/algorithm/3.2');
      expectEntity(reply, 'algorithm', '3.2');
      expect(reply.body).toMatchObject({
        title: 'Variable elimination',
        chapter: '3',
        section: '3.3',
        page_number: null,
        content: expect.stringContaining('**Algorithm 3.2.**'),
      });
      expect(reply.body.references).toEqual(expect.arrayContaining(['formula_3_2', 'algorithm_2_2']));
      expect(reply.body.cited_by).toContain('exercise_3_2');
    });

    it('GET /entity/formula/16.4', async () => {
      const reply = await call('GET', '/entity/formula/16.4');
      expectEntity(reply, 'formula', '16.4');
      expect(reply.body).toMatchObject({ chapter: '16', page_number: null });
      expect(reply.body.content).toContain('(16.4)');
    });

    it('GET /entity/table/5.1', async () => {
      const reply = await call('GET', '/entity/table/5.1');
      expectEntity(reply, 'table', '5.1');
      expect(reply.body).toMatchObject({ chapter: '5', section: '5.1', page_number: 2 });
    });

    it('GET /entity/figure/7.2', async () => {
      const reply = await call('GET', '/entity/figure/7.2');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        id: 'figure_7_2',
        type: 'figure',
        number: '7.2',
        title: expect.stringMatching(/^Warehouse network diagram/),
        chapter: '7',
        page_number: 212,
        references: [],
        cited_by: [],
      });
    });

    it('finds an appendix entity: A.1', async () => {
      const reply = await call('GET', '/entity/algorithm/A.1');
      expect(reply.status).toBe(200);
      expect(reply.body.id).toBe('algorithm_A_1');
    });

    it('answers the error examples', async () => {
      expectError(
        await call('GET', '/entity/lemma/3.2'),
        400,
        'INVALID_PARAMETER',
        'entity_type must be one of: formula, algorithm, table, figure',
      );
      for (const number of ['three', '3', '3.2.1', '3.'])
        expectError(
          await call('GET', `/entity/algorithm/${number}`),
          400,
          'INVALID_PARAMETER',
          'number format invalid. Expected format: X.Y or X.YZ',
        );
      expectError(
        await call('GET', '/entity/algorithm/99.99'),
        404,
        'NOT_FOUND',
        'Algorithm 99.99 not found in knowledge base',
      );
    });
  });

  it('serves the facade at the root of the API: 003 paths with no prefix', async () => {
    const spec = await call('GET', '/openapi.json');
    // The contract's three paths first; the routes beyond the contract (streaming, admin refresh) follow.
    expect(Object.keys(spec.body.paths).slice(0, 3)).toEqual([
      '/search/semantic',
      '/search/expand-graph',
      '/entity/{entity_type}/{number}',
    ]);
    expect(spec.body.components.schemas.Error.properties.error_code.example).toBe('INVALID_PARAMETER');
  });
});
