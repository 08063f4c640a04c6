import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJsonLogger, loadConfig, type RagRuntime, type Sql } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createMcpHttpServer } from '../../mcp/src/http.js';
import { createToolbox } from '../../mcp/src/server.js';
import { ingestTestCorpus, SPEC } from '../../mcp/src/test-corpus.js';
import { docxBomb } from '../../../packages/agentic-rag/src/ingest/loaders/zip-bomb.test-support.js';
import { createApi } from './server.js';

/**
 * Every transport (GraphQL, REST, MCP over HTTP) fed hostile input in every argument position:
 * NUL bytes, lone surrogates, a 10 MB string, wrong JSON types, odd numbers and filters. Whatever
 * comes back must be a client error with a stable code: never HTTP 500, never INTERNAL /
 * INTERNAL_SERVER_ERROR / JSON-RPC -32603, never a stack frame or a source path. A case that
 * breaks the rule is listed with its request and a snippet of the answer.
 */

type Json = Record<string, unknown>;
type Kind = 'string' | 'number' | 'boolean' | 'list' | 'json';
type Transport = 'graphql' | 'rest' | 'mcp';

const HUGE = 'x'.repeat(10_000_000);
/** JSON nesting this deep: 3,000 used to be refused cleanly and 4,000 overflowed a stack. */
const DEPTHS = [100, 3000, 4000, 20_000];
const BOMB = docxBomb(600_000_000);
const deepJson = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
// Long but under the 1 MiB body limit, so validation sees it; one 200,000-character token, which
// once took four minutes to ingest (quadratic token counting and address masking): a regression
// shows as this file timing out.
const LONG = 'x'.repeat(200_000);

/** Sent in every argument position. */
const POISONS: ReadonlyArray<[string, unknown]> = [
  ['nul', 'a\u0000b'],
  ['lone-high', '\ud800'],
  ['lone-low', 'x\udfffy'],
  ['number', 42],
  ['boolean', true],
  ['object', {}],
  ['array', []],
  ['null', null],
];

const FILTER_POISONS: ReadonlyArray<[string, unknown]> = [
  ['filter-nul', { sourcePrefix: 'a\u0000' }],
  ['filter-surrogate', { sourcePrefix: '\ud800', kind: 'x\udfffy' }],
  ['filter-chapter-nul', { chapter: 'a\u0000b', section: '\ud800' }],
  ['filter-kind-number', { kind: 42 }],
  ['filter-page-string', { page_number: 'x' }],
  ['filter-page-huge', { page_number: 2 ** 62 }],
  ['filter-page-negative', { page_number: -1 }],
  ['filter-unknown', { bogus: 1 }],
  ['filter-nested', { chapter: { a: [1] } }],
  ['filter-long', { sourcePrefix: LONG }],
  ['filter-proto', JSON.parse('{"__proto__":{"polluted":true}}')],
  ['filter-string', 'chapter=3'],
];

/** Sent besides POISONS where the position holds this kind of value. */
const EXTRA: Record<Kind, ReadonlyArray<[string, unknown]>> = {
  string: [
    ['long', LONG],
    ['blank', '   '],
    ['control', '\u0001\u001f\u007f'],
    ['bom-rtl', '\ufeff\u202e'],
  ],
  number: [
    ['negative', -1],
    ['fraction', 1.5],
    ['unsafe-int', 2 ** 53],
    ['numeric-string', '12'],
  ],
  boolean: [['string', 'true']],
  list: [
    ['nul-item', ['a\u0000b']],
    ['surrogate-item', ['\ud800']],
    ['number-item', [42]],
    ['nested', [[]]],
    ['many', Array.from({ length: 101 }, (_, index) => `id${index}`)],
  ],
  json: FILTER_POISONS,
};

/** A copy of `base` with the value at a dotted path (`input.documents.0.id`) replaced. */
function setAt(base: Json, path: string, value: unknown): Json {
  const root = structuredClone(base);
  const keys = path.split('.');
  let node = root;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Json;
  node[keys.at(-1)!] = value;
  return root;
}

/** Every poison in every position: one case per (position, value). */
function poisoned(base: Json, positions: Record<string, Kind>): Array<{ label: string; value: Json }> {
  return Object.entries(positions).flatMap(([path, kind]) =>
    [...POISONS, ...EXTRA[kind]].map(([name, value]) => ({
      label: `${path}=${name}`,
      value: setAt(base, path, value),
    })),
  );
}

/** A request as the report shows it: control characters escaped, long values summarised. */
const describeValue = (value: unknown) =>
  JSON.stringify(value, (_, item: unknown) =>
    typeof item === 'string' && item.length > 80
      ? `<${item.length} chars>`
      : Array.isArray(item) && item.length > 20
        ? `<${item.length} items>`
        : item,
  );

const STACK = /(\\n|\n)\s+at |\/src\/|\.ts:|node_modules/;
const INTERNAL = new Set(['INTERNAL', 'INTERNAL_SERVER_ERROR', 'rpc:-32603']);

interface Tally {
  cases: number;
  codes: Map<string, number>;
  findings: number;
}
const tallies: Record<Transport, Tally> = {
  graphql: { cases: 0, codes: new Map(), findings: 0 },
  rest: { cases: 0, codes: new Map(), findings: 0 },
  mcp: { cases: 0, codes: new Map(), findings: 0 },
};
/** The current test's findings: each test asserts on its own. */
let findings: string[] = [];

/** Counts a case and its codes; records it as a finding when it answered 5xx, INTERNAL or a stack. */
function judge(
  transport: Transport,
  request: string,
  answer: { status: number; text: string; ms: number },
  codes: string[],
  oversize = false,
): void {
  const tally = tallies[transport];
  tally.cases += 1;
  if (answer.ms > 1000) slow.push(`${answer.ms} ms ${transport} ${request.slice(0, 120)}`);
  for (const code of codes) tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1);
  const problems = [
    answer.status === 0 && 'no HTTP answer',
    answer.status >= 500 && `HTTP ${answer.status}`,
    codes.some((code) => INTERNAL.has(code)) && 'internal error code',
    STACK.test(answer.text) && 'stack trace or source path',
    oversize && ![400, 413].includes(answer.status) && 'oversize body not refused with 400/413',
  ].filter(Boolean);
  if (problems.length === 0) return;
  tally.findings += 1;
  findings.push(`${problems.join(', ')}: ${request} -> ${answer.status} ${answer.text.slice(0, 300)}`);
}

/** Cases slower than a second, for the summary: a cheap refusal should never take long. */
const slow: string[] = [];

async function send(url: string, init: RequestInit): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, text, ms: ms() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, text: `fetch failed: ${cause?.code ?? cause?.message ?? String(error)}`, ms: ms() };
  }
}

const parse = (text: string): Json | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
};

const BAD_AUTHORIZATION = [
  `Bearer ${'x'.repeat(5000)}`,
  'Bearer',
  'Bearer ',
  'Basic abc',
  'Bearer ar_zz_zz',
  'Bearer \u00ff\u00fe',
  '',
];

describe('fuzzing every transport with hostile input', () => {
  const ws = uniqueWorkspace('fuzz');
  let sql: Sql;
  let runtime: RagRuntime;
  let authorization: string;
  let api: { server: Server; stop: () => Promise<void> };
  let mcp: Server;
  let base: string;
  let mcpUrl: string;

  const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      AGENTIC_RAG_WORKSPACE: ws,
      AGENTIC_RAG_MCP_WORKSPACES: '*',
      LOG_LEVEL: 'silent',
    });
    // What the transports mask for clients is what a finding needs to show.
    const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
    runtime = await createRuntime({ config, sql, logger });
    await ingestTestCorpus(runtime, ws);
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    api = await createApi(access.service);
    mcp = createMcpHttpServer(createToolbox(access.service, logger), access.service, {
      allowedOrigins: [],
      logger,
    });
    await Promise.all([listen(api.server), listen(mcp)]);
    base = origin(api.server);
    mcpUrl = `${origin(mcp)}/mcp`;
  });

  beforeEach(() => {
    findings = [];
  });

  afterAll(async () => {
    await new Promise((resolve) => api?.server.close(resolve));
    await api?.stop();
    await new Promise((resolve) => mcp?.close(resolve));
    if (sql) await dropWorkspace(sql, ws);
    await runtime?.close();
    await sql?.close();
    const summary = Object.entries(tallies).map(
      ([transport, tally]) =>
        `${transport} ${tally.cases} cases [${[...tally.codes].map(([code, count]) => `${code}:${count}`).join(' ')}] ${tally.findings} findings`,
    );
    console.log(`fuzz: ${summary.join('; ')}`);
    if (slow.length > 0) console.log(`fuzz: slow cases:\n${slow.join('\n')}`);
  });

  describe('GraphQL', () => {
    const graphqlCodes = (answer: { status: number; text: string }) => {
      const body = parse(answer.text);
      const errors = body?.errors as Array<{ extensions?: { code?: string } }> | undefined;
      if (!body) return [`HTTP_${answer.status}`];
      return errors ? errors.map((error) => error.extensions?.code ?? 'NO_CODE') : ['OK'];
    };
    const post = async (
      label: string,
      body: string,
      headers: Record<string, string> = {},
      oversize = false,
    ) => {
      const answer = await send(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization, ...headers },
        body,
      });
      judge('graphql', label, answer, graphqlCodes(answer), oversize);
      return answer;
    };
    const query = (label: string, document: string, variables: unknown) =>
      post(`${label} ${describeValue(variables)}`, JSON.stringify({ query: document, variables }));

    // Every field with arguments: base variables that work, and the positions to poison.
    const OPERATIONS: Array<{ document: string; variables: Json; positions: Record<string, Kind> }> = [
      {
        document: 'query($input: SearchInput!) { search(input: $input) { query hits { chunkId } warnings } }',
        variables: { input: { query: 'create a location', workspaceId: ws, k: 3 } },
        positions: {
          'input.query': 'string',
          'input.workspaceId': 'string',
          'input.k': 'number',
          'input.filters': 'json',
        },
      },
      {
        document:
          'query($workspaceId: ID!, $id: ID!, $first: Int) { document(workspaceId: $workspaceId, id: $id) { id chunks(first: $first) { chunkId } } }',
        variables: { workspaceId: ws, id: `${SPEC}#paths/locations/post`, first: 2 },
        positions: { workspaceId: 'string', id: 'string', first: 'number' },
      },
      {
        document:
          'query($workspaceId: ID!, $first: Int, $after: String, $sourcePrefix: String) { documents(workspaceId: $workspaceId, first: $first, after: $after, sourcePrefix: $sourcePrefix) { totalCount edges { cursor } } }',
        variables: { workspaceId: ws, first: 2 },
        positions: { workspaceId: 'string', first: 'number', after: 'string', sourcePrefix: 'string' },
      },
      {
        document: 'query($workspaceId: ID!) { corpus(workspaceId: $workspaceId) { version documents } }',
        variables: { workspaceId: ws },
        positions: { workspaceId: 'string' },
      },
      {
        document:
          'query($workspaceId: ID!, $type: String!, $number: String!) { entity(workspaceId: $workspaceId, type: $type, number: $number) { id name } }',
        variables: { workspaceId: ws, type: 'algorithm', number: '3.2' },
        positions: { workspaceId: 'string', type: 'string', number: 'string' },
      },
      {
        document:
          'query($workspaceId: ID!, $ids: [ID!]!, $relationTypes: [String!], $depth: Int) { expandGraph(workspaceId: $workspaceId, ids: $ids, relationTypes: $relationTypes, depth: $depth) { entities { id } edges { from to } } }',
        variables: { workspaceId: ws, ids: ['Resource:location'] },
        positions: {
          workspaceId: 'string',
          ids: 'list',
          'ids.0': 'string',
          relationTypes: 'list',
          depth: 'number',
        },
      },
      {
        document: 'query($id: ID!) { job(id: $id) { id status } }',
        variables: { id: 'job-1' },
        positions: { id: 'string' },
      },
      {
        document: 'query($limit: Int) { deadLetters(limit: $limit) { id } }',
        variables: { limit: 5 },
        positions: { limit: 'number' },
      },
      {
        document: 'query($includeRevoked: Boolean) { apiKeys(includeRevoked: $includeRevoked) { id } }',
        variables: { includeRevoked: false },
        positions: { includeRevoked: 'boolean' },
      },
      {
        document:
          'query($workspaceId: ID, $first: Int, $before: Int) { auditLog(workspaceId: $workspaceId, first: $first, before: $before) { id outcome } }',
        variables: { workspaceId: ws, first: 5 },
        positions: { workspaceId: 'string', first: 'number', before: 'number' },
      },
      {
        document: 'mutation($input: RagAnswerInput!) { ragAnswer(input: $input) { answer refused } }',
        variables: { input: { query: 'What endpoints can I use to create a location?', workspaceId: ws } },
        positions: {
          'input.query': 'string',
          'input.workspaceId': 'string',
          'input.topK': 'number',
          'input.useHyde': 'boolean',
          'input.useTools': 'boolean',
          'input.filters': 'json',
          'input.debug': 'boolean',
        },
      },
      {
        document:
          'mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode summary { chunks failures { code } } } }',
        variables: {
          input: { workspaceId: ws, documents: [{ id: 'fuzz/note.md', content: '# Fuzz\n\nA note.\n' }] },
        },
        positions: {
          'input.workspaceId': 'string',
          'input.paths': 'list',
          'input.paths.0': 'string',
          'input.documents': 'list',
          'input.documents.0.id': 'string',
          'input.documents.0.content': 'string',
          'input.prune': 'boolean',
        },
      },
      {
        document:
          'mutation($workspaceId: ID!, $id: ID!) { deleteDocument(workspaceId: $workspaceId, id: $id) { deleted } }',
        variables: { workspaceId: ws, id: 'fuzz/missing.md' },
        positions: { workspaceId: 'string', id: 'string' },
      },
      {
        document:
          'mutation($workspaceId: ID!, $id: ID!) { refreshDocument(workspaceId: $workspaceId, id: $id) { mode } }',
        variables: { workspaceId: ws, id: 'fuzz/missing.md' },
        positions: { workspaceId: 'string', id: 'string' },
      },
      {
        document: 'mutation($ids: [ID!]) { retryDeadLetters(ids: $ids) }',
        variables: { ids: ['job-1'] },
        positions: { ids: 'list', 'ids.0': 'string' },
      },
      {
        document:
          'mutation($workspaceId: ID!) { resumeIngest(workspaceId: $workspaceId) { retried requeued } }',
        variables: { workspaceId: ws },
        positions: { workspaceId: 'string' },
      },
      {
        document: 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { id role } }',
        variables: { input: { workspaceId: ws, role: 'reader', label: 'fuzz' } },
        positions: { 'input.workspaceId': 'string', 'input.role': 'string', 'input.label': 'string' },
      },
      {
        document: 'mutation($id: ID!) { revokeApiKey(id: $id) }',
        variables: { id: 'no-such-key' },
        positions: { id: 'string' },
      },
    ];

    it('answers every poisoned argument of every field without an internal error', async () => {
      for (const { document, variables, positions } of OPERATIONS) {
        const field = /\{\s*(\w+)/.exec(document)![1]!;
        for (const { label, value } of poisoned(variables, positions))
          await query(`${field} ${label}`, document, value);
      }
      // The 10 MB string once per kind of position: an argument, an input-object field, a filter.
      for (const [label, document, variables] of [
        ['corpus workspaceId=huge', OPERATIONS[3]!.document, { workspaceId: HUGE }],
        [
          'search input.query=huge',
          OPERATIONS[0]!.document,
          setAt(OPERATIONS[0]!.variables, 'input.query', HUGE),
        ],
        [
          'search input.filters=huge',
          OPERATIONS[0]!.document,
          setAt(OPERATIONS[0]!.variables, 'input.filters', { sourcePrefix: HUGE }),
        ],
      ] as const)
        await post(label, JSON.stringify({ query: document, variables }), {}, true);
      expect(findings).toEqual([]);
    }, 300_000);

    it('answers poisoned documents, envelopes, bodies and credentials without an internal error', async () => {
      const corpus = OPERATIONS[3]!.document;
      const envelopes: Array<[string, unknown]> = [
        ['query=number', { query: 42 }],
        ['query=object', { query: {} }],
        ['query=null', { query: null }],
        ['variables=array', { query: corpus, variables: [ws] }],
        ['variables=string', { query: corpus, variables: 'ws' }],
        ['operationName=nul', { query: corpus, variables: { workspaceId: ws }, operationName: 'a\u0000b' }],
        ['operationName=number', { query: corpus, variables: { workspaceId: ws }, operationName: 42 }],
        ['extensions=string', { query: corpus, variables: { workspaceId: ws }, extensions: 'x' }],
        ['literal-nul', { query: `{ corpus(workspaceId: "a\u0000b") { version } }` }],
        ['literal-escaped-nul', { query: '{ corpus(workspaceId: "a\\u0000b") { version } }' }],
        ['literal-surrogate', { query: '{ corpus(workspaceId: "\ud800") { version } }' }],
        ['literal-escaped-surrogate', { query: '{ corpus(workspaceId: "\\ud800") { version } }' }],
        ['document-nul', { query: '\u0000{ corpus }' }],
        ['document-unterminated', { query: '{ corpus(workspaceId: "' }],
        ['document-deep', { query: `${'{ search '.repeat(200)}${'}'.repeat(200)}` }],
        ['document-long', { query: `{ ${'__typename '.repeat(50_000)}}` }],
        ['unknown-variable-type', { query: 'query($x: Nope) { corpus(workspaceId: $x) { version } }' }],
      ];
      for (const [label, envelope] of envelopes) await post(`envelope ${label}`, JSON.stringify(envelope));
      for (const depth of DEPTHS) {
        const variables = `{"workspaceId":${JSON.stringify(ws)},"x":${deepJson(depth)}}`;
        await post(
          `variables nested ${depth} deep`,
          `{"query":${JSON.stringify(corpus)},"variables":${variables}}`,
        );
        const answer = await send(
          `${base}/graphql?query=${encodeURIComponent(corpus)}&variables=${encodeURIComponent(variables)}`,
          { headers: { authorization, 'apollo-require-preflight': 'true' } },
        );
        judge('graphql', `GET /graphql variables nested ${depth} deep`, answer, graphqlCodes(answer));
      }
      // A zip bomb uploaded inline: 0.67 MB of .docx that inflates to 600 MB of XML.
      const bomb = await post(
        'ingestDocuments docx bomb',
        JSON.stringify({
          query:
            'mutation($input: IngestInput!) { ingestDocuments(input: $input) { summary { failures { sourceId code } } } }',
          variables: {
            input: {
              workspaceId: ws,
              documents: [{ id: 'fuzz/bomb.docx', contentBase64: BOMB.toString('base64') }],
            },
          },
        }),
      );
      expect(parse(bomb.text)?.data).toEqual({
        ingestDocuments: { summary: { failures: [{ sourceId: 'fuzz/bomb.docx', code: 'FILE_TOO_LARGE' }] } },
      });
      for (const body of ['{', 'nul', '42', '[]', 'null', '"str"', '', '{"query":"{ corpus }"\u0000}'])
        await post(`raw body ${JSON.stringify(body)}`, body);
      await post('raw body invalid UTF-8', '{"query":"\udcff"}');
      for (const header of BAD_AUTHORIZATION)
        await post(
          `authorization=${describeValue(header)}`,
          JSON.stringify({ query: corpus, variables: { workspaceId: ws } }),
          {
            authorization: header,
          },
        );
      await post(
        'body=10 MB',
        JSON.stringify({ query: corpus, variables: { workspaceId: ws }, pad: HUGE }),
        {},
        true,
      );
      for (const search of [
        '?query=%00',
        '?query=%ED%A0%80',
        `?query=${encodeURIComponent('{ corpus(workspaceId: "\u0000") { version } }')}`,
        '?variables=%00',
      ]) {
        const answer = await send(`${base}/graphql${search}`, {
          headers: { authorization, 'apollo-require-preflight': 'true' },
        });
        judge('graphql', `GET /graphql${search}`, answer, graphqlCodes(answer));
      }
      expect(findings).toEqual([]);
    }, 120_000);
  });

  describe('REST', () => {
    const restCodes = (answer: { status: number; text: string }) => {
      const code = parse(answer.text)?.error_code;
      return [typeof code === 'string' ? code : answer.status < 400 ? 'OK' : `HTTP_${answer.status}`];
    };
    const request = async (label: string, path: string, init: RequestInit = {}, oversize = false) => {
      const answer = await send(`${base}${path}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          authorization,
          ...(init.headers as Record<string, string>),
        },
      });
      judge('rest', `${init.method ?? 'GET'} ${path} ${label}`, answer, restCodes(answer), oversize);
    };
    const postJson = (path: string, label: string, body: unknown) =>
      request(label, path, { method: 'POST', body: JSON.stringify(body) });

    it('answers every poisoned body field, path segment and query string without an internal error', async () => {
      const semantic = { query: 'algorithm inference', k: 3 };
      const expand = { document_ids: ['algorithm:3.2'] };
      for (const { label, value } of poisoned(semantic, {
        query: 'string',
        k: 'number',
        traverse_types: 'list',
        'traverse_types.0': 'string',
        filters: 'json',
        'filters.chapter': 'string',
        'filters.page_number': 'number',
      }))
        await postJson('/search/semantic', `${label} ${describeValue(value)}`, value);
      for (const { label, value } of poisoned(expand, {
        document_ids: 'list',
        'document_ids.0': 'string',
        traverse_types: 'list',
        'traverse_types.0': 'string',
      }))
        await postJson('/search/expand-graph', `${label} ${describeValue(value)}`, value);

      const workspaces = ['%00', 'a%00b', '%ED%A0%80', '%FF', '%C0%AF', '', 'x'.repeat(5000), '..%2F..', '*'];
      for (const workspace of workspaces) {
        const query = `?workspace=${workspace}`;
        await request('', `/search/semantic${query}`, { method: 'POST', body: JSON.stringify(semantic) });
        await request('', `/search/expand-graph${query}`, { method: 'POST', body: JSON.stringify(expand) });
        await request('', `/entity/algorithm/3.2${query}`);
      }
      const segments = [
        ['%00', '3.2'],
        ['algorithm', '%ED%A0%80'],
        ['algorithm', '%00'],
        ['%ED%A0%80', '1'],
        ['algorithm', '3.2%00'],
        ['algorithm', '%FF'],
        ['%F0%9F%98%80', '3.2'],
        ['algorithm', 'x'.repeat(5000)],
        ['algorithm', '%25'],
        ['__proto__', 'constructor'],
      ];
      for (const [type, number] of segments) await request('', `/entity/${type}/${number}`);

      for (const route of ['/search/semantic', '/search/expand-graph']) {
        for (const body of [
          '{',
          'nul',
          '42',
          '[]',
          'null',
          '"str"',
          '',
          '{"query":"abc"\u0000}',
          '{"query":"\udcff\udcff\udcff"}',
        ])
          await request(`raw body ${JSON.stringify(body)}`, route, { method: 'POST', body });
        await request('body=10 MB', route, { method: 'POST', body: JSON.stringify({ query: HUGE }) }, true);
        for (const depth of DEPTHS)
          await request(`body nested ${depth} deep`, route, {
            method: 'POST',
            body: `{"query":"algorithm inference","filters":${deepJson(depth)}}`,
          });
        await request('content-type=text/plain', route, {
          method: 'POST',
          body: JSON.stringify(semantic),
          headers: { 'content-type': 'text/plain' },
        });
      }
      for (const header of BAD_AUTHORIZATION)
        await request(`authorization=${describeValue(header)}`, '/search/semantic', {
          method: 'POST',
          body: JSON.stringify(semantic),
          headers: { authorization: header },
        });
      expect(findings).toEqual([]);
    }, 300_000);
  });

  describe('MCP over HTTP', () => {
    let id = 0;
    const mcpCodes = (answer: { status: number; text: string }) => {
      const body = parse(answer.text);
      if (!body) return [`HTTP_${answer.status}`];
      const error = body.error as { code?: number } | undefined;
      if (error) return [`rpc:${error.code}`];
      const result = body.result as { isError?: boolean; structuredContent?: { error?: { code?: string } } };
      return [result?.isError ? (result.structuredContent?.error?.code ?? 'NO_CODE') : 'OK'];
    };
    const rpc = async (
      label: string,
      body: string,
      headers: Record<string, string> = {},
      oversize = false,
    ) => {
      const answer = await send(mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization,
          ...headers,
        },
        body,
      });
      judge('mcp', label, answer, mcpCodes(answer), oversize);
    };
    const callTool = (name: unknown, args: unknown, label: string) =>
      rpc(
        `tools/call ${describeValue(name)} ${label} ${describeValue(args)}`,
        JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
      );

    const TOOLS: Array<{ name: string; args: Json; positions: Record<string, Kind> }> = [
      {
        name: 'kb_search',
        args: { query: 'create a location' },
        positions: { query: 'string', top_k: 'number', filters: 'json', workspace: 'string' },
      },
      {
        name: 'kb_get_doc',
        args: { id: `${SPEC}#paths/locations/post` },
        positions: { id: 'string', offset: 'number', max_chars: 'number', workspace: 'string' },
      },
      {
        name: 'graph_find_endpoints',
        args: { resource: 'location' },
        positions: { resource: 'string', operation: 'string', limit: 'number', workspace: 'string' },
      },
      {
        name: 'graph_expand',
        args: { ids: ['Resource:location'] },
        positions: {
          ids: 'list',
          'ids.0': 'string',
          relation_types: 'list',
          depth: 'number',
          limit: 'number',
          workspace: 'string',
        },
      },
      {
        name: 'get_entity',
        args: { type: 'algorithm', number: '3.2' },
        positions: { id: 'string', type: 'string', number: 'string', workspace: 'string' },
      },
      {
        name: 'rag_answer',
        args: { query: 'What endpoints can I use to create a location?' },
        positions: {
          query: 'string',
          top_k: 'number',
          use_hyde: 'boolean',
          use_tools: 'boolean',
          filters: 'json',
          workspace: 'string',
        },
      },
    ];

    it('answers every poisoned argument of every tool without an internal error', async () => {
      for (const { name, args, positions } of TOOLS) {
        await callTool(name, { ...args, bogus: 1 }, 'unknown-argument');
        for (const { label, value } of poisoned(args, positions)) await callTool(name, value, label);
        for (const [poison, value] of POISONS) await callTool(name, value, `arguments=${poison}`);
      }
      for (const [poison, value] of [...POISONS, ['long', LONG]] as const)
        await callTool(value, { query: 'x' }, `name=${poison}`);
      expect(findings).toEqual([]);
    }, 300_000);

    it('answers poisoned JSON-RPC envelopes, bodies and credentials without an internal error', async () => {
      const envelopes: Array<[string, unknown]> = [
        ['method=nul', { jsonrpc: '2.0', id: 1, method: 'a\u0000b' }],
        ['method=surrogate', { jsonrpc: '2.0', id: 1, method: '\ud800' }],
        ['method=number', { jsonrpc: '2.0', id: 1, method: 42 }],
        ['jsonrpc=1.0', { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
        ['id=object', { jsonrpc: '2.0', id: {}, method: 'tools/list' }],
        ['id=nul', { jsonrpc: '2.0', id: 'a\u0000b', method: 'tools/list' }],
        ['params=string', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }],
        ['params=null', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: null }],
        [
          'initialize poisoned',
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '\ud800',
              capabilities: 42,
              clientInfo: { name: 'a\u0000b', version: [] },
            },
          },
        ],
        ['batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 42, null]],
        ['empty batch', []],
      ];
      for (const [label, envelope] of envelopes) await rpc(`envelope ${label}`, JSON.stringify(envelope));
      for (const depth of DEPTHS)
        await rpc(
          `arguments nested ${depth} deep`,
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"kb_search","arguments":{"query":"x","k":${deepJson(depth)}}}}`,
        );
      for (const body of ['{', 'nul', '42', 'null', '"str"', '', '{"jsonrpc":"2.0"\u0000}'])
        await rpc(`raw body ${JSON.stringify(body)}`, body);
      await rpc('accept=text/html', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
        accept: 'text/html',
      });
      await rpc('content-type=text/plain', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
        'content-type': 'text/plain',
      });
      for (const header of BAD_AUTHORIZATION)
        await rpc(
          `authorization=${describeValue(header)}`,
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          {
            authorization: header,
          },
        );
      await rpc(
        'body=10 MB',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'kb_search', arguments: { query: HUGE } },
        }),
        {},
        true,
      );
      expect(findings).toEqual([]);
    }, 120_000);
  });
});
