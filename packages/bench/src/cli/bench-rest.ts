import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ErrorCode, NUMBERED_ENTITY_TYPES, RagError } from '@agentic-rag/core';
import { createRuntime, environmentConfig, EXIT, runCli } from '@agentic-rag/core/runtime';
import {
  benchArguments,
  benchLog,
  formatTable,
  keyCheckPair,
  latency,
  latencyColumns,
  openScratchDatabase,
  report,
  requireBenchServer,
  target,
  verdict,
} from '../bench/index.js';
import { createApi } from '@agentic-rag/api/server';

const HELP = `Usage: pnpm bench:rest [--requests N] [--json]

The REST contract over HTTP on a real Postgres, against the GraphQL query that does the same
work on the same server in the same run (the baseline): semantic search (titles of the textbook's
numbered entities as queries) vs GraphQL search, expand-graph vs expandGraph, entity vs entity.
One client, sequential requests; prints p50/p95 and the targets (semantic p95 < 100 ms,
expand-graph p95 < 50 ms, entity p95 < 10 ms). Every request runs twice, on two servers over the
same database: with an API key (auth on, the per-key rate limiter in process) and with
AGENTIC_RAG_AUTH=off; the p50 difference is what the key check costs (target <= 1 ms).

Needs BENCH_DATABASE_URL or DATABASE_URL; runs in the scratch database "agentic_rag_bench_rest"
(the sample textbook is ingested there; unchanged files are skipped on a rerun).`;

const DATABASE = 'agentic_rag_bench_rest';
const WORKSPACE = 'bench-rest';
const TEXTBOOK = fileURLToPath(new URL('../../../../simulated_ingestion/textbook', import.meta.url));
const TARGETS: Record<string, number> = { semantic: 100, 'expand-graph': 50, entity: 10 };

interface Row {
  route: string;
  api: 'REST' | 'GraphQL';
  auth: 'on' | 'off';
  requests: number;
  p50: number;
  p95: number;
  target: string;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, { requests: { type: 'string', default: '200' } });
  if (!values) return EXIT.ok;
  const config = environmentConfig();
  const serverUrl = requireBenchServer(config, 'bench:rest');
  const count = Number(values.requests);
  if (!Number.isInteger(count) || count < 10)
    throw new RagError(ErrorCode.INVALID_INPUT, '--requests must be an integer of at least 10');
  const log = benchLog;

  const sql = await openScratchDatabase(serverUrl, DATABASE, 10);
  const runtime = await createRuntime({ config: { ...config, LOG_LEVEL: 'warn' }, sql });
  // Two servers over one runtime: the only difference is whether callers authenticate.
  const { secured, open, authorization, close } = await keyCheckPair(runtime, {
    workspaceId: WORKSPACE,
    label: 'bench:rest',
  });
  const api = await createApi(secured);
  const openApi = await createApi(open);
  try {
    const summary = await runtime.pipeline.ingestSources({ workspaceId: WORKSPACE, sources: [TEXTBOOK] });
    log(
      `bench:rest: textbook ${summary.documents.added + summary.documents.updated} written, ${summary.documents.unchanged} unchanged`,
    );
    await sql.query('VACUUM ANALYZE');
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => openApi.server.listen(0, '127.0.0.1', resolve));
    const bases = {
      on: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`,
      off: `http://127.0.0.1:${(openApi.server.address() as AddressInfo).port}`,
    };
    let auth: 'on' | 'off' = 'on';
    const headers = (): Record<string, string> => (auth === 'on' ? { authorization } : {});

    const numbered = await runtime.graph.findEntities({ workspaceId: WORKSPACE, limit: 10_000 });
    const entities = numbered.filter((entity) =>
      ['Formula', 'Algorithm', 'Table', 'Figure'].includes(entity.type),
    );
    const titled = numbered.filter(
      (entity) =>
        (NUMBERED_ENTITY_TYPES as readonly string[]).includes(entity.type) &&
        typeof entity.properties.title === 'string',
    );
    if (entities.length === 0 || titled.length === 0)
      throw new RagError(ErrorCode.NOT_FOUND, 'no numbered entities were ingested');
    const pick = <T>(items: readonly T[], index: number) => items[index % items.length]!;
    const restId = (id: string) => id.charAt(0).toLowerCase() + id.slice(1);

    const post = (path: string, body: unknown) =>
      fetch(`${bases[auth]}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers() },
        body: JSON.stringify(body),
      });
    const graphql = (query: string, variables: unknown) => post('/graphql', { query, variables });
    const cases: Array<[string, Row['api'], (index: number) => Promise<Response>]> = [
      [
        'semantic',
        'REST',
        (index) =>
          post(`/search/semantic?workspace=${WORKSPACE}`, {
            query: String(pick(titled, index).properties.title),
            k: 5,
          }),
      ],
      [
        'semantic',
        'GraphQL',
        (index) =>
          graphql(
            'query($q: String!, $w: ID!) { search(input: {query: $q, workspaceId: $w, k: 5}) { hits { chunkId score } } }',
            {
              q: String(pick(titled, index).properties.title),
              w: WORKSPACE,
            },
          ),
      ],
      [
        'expand-graph',
        'REST',
        (index) =>
          post(`/search/expand-graph?workspace=${WORKSPACE}`, {
            document_ids: [restId(pick(entities, index).id)],
          }),
      ],
      [
        'expand-graph',
        'GraphQL',
        (index) =>
          graphql(
            'query($w: ID!, $ids: [ID!]!) { expandGraph(workspaceId: $w, ids: $ids, depth: 1) { entities { id } } }',
            {
              w: WORKSPACE,
              ids: [pick(entities, index).id],
            },
          ),
      ],
      [
        'entity',
        'REST',
        (index) => {
          const entity = pick(entities, index);
          return fetch(
            `${bases[auth]}/entity/${entity.type.toLowerCase()}/${entity.id.slice(entity.type.length + 1)}?workspace=${WORKSPACE}`,
            { headers: headers() },
          );
        },
      ],
      [
        'entity',
        'GraphQL',
        (index) => {
          const entity = pick(entities, index);
          return graphql(
            'query($w: ID!, $t: String!, $n: String!) { entity(workspaceId: $w, type: $t, number: $n) { id } }',
            {
              w: WORKSPACE,
              t: entity.type,
              n: entity.id.slice(entity.type.length + 1),
            },
          );
        },
      ],
    ];
    const rows: Row[] = [];
    for (const [route, kind, request] of cases) {
      const times = { on: [] as number[], off: [] as number[] };
      for (const side of ['on', 'off'] as const) {
        auth = side;
        for (let index = 0; index < 5; index++) await (await request(index)).arrayBuffer();
      }
      // Alternating on and off request by request: drift in the machine's load hits both alike.
      for (let index = 0; index < count; index++) {
        for (const side of ['on', 'off'] as const) {
          auth = side;
          const started = performance.now();
          const response = await request(index);
          await response.arrayBuffer();
          if (response.status !== 200)
            throw new RagError(
              ErrorCode.INTERNAL,
              `${kind} ${route} (auth ${side}) answered ${response.status}`,
            );
          times[side].push(performance.now() - started);
        }
      }
      for (const side of ['on', 'off'] as const) {
        const { p50, p95 } = latency(times[side]);
        rows.push({
          route,
          api: kind,
          auth: side,
          requests: count,
          p50,
          p95,
          target: kind === 'REST' ? target('p95', p95, TARGETS[route]!, true) : 'baseline',
        });
      }
      log(
        `bench:rest ${kind} ${route}: p50 ${latency(times.on).p50.toFixed(1)} ms with a key, ${latency(times.off).p50.toFixed(1)} ms without`,
      );
    }
    const overhead = rows
      .filter((row) => row.auth === 'on')
      .map((row) => {
        const off = rows.find(
          (other) => other.auth === 'off' && other.route === row.route && other.api === row.api,
        )!;
        return { route: row.route, api: row.api, p50: row.p50 - off.p50 };
      });
    report(values.json, { entities: entities.length, rows, authOverhead: overhead }, () => [
      '',
      formatTable(
        [
          { header: 'route', value: (row: Row) => row.route },
          { header: 'api', value: (row) => row.api },
          { header: 'auth', value: (row) => row.auth },
          { header: 'requests', value: (row) => row.requests },
          ...latencyColumns<Row, 'p50' | 'p95'>(1, ['p50', 'p95']),
          { header: 'target', value: (row) => row.target },
        ],
        rows,
      ),
      '',
      'key check overhead (p50 with a key - p50 with AGENTIC_RAG_AUTH=off; target <= 1 ms)',
      formatTable(
        [
          { header: 'route', value: (row: (typeof overhead)[number]) => row.route },
          { header: 'api', value: (row) => row.api },
          { header: 'p50 ms', value: (row) => row.p50.toFixed(2), align: 'right' },
          { header: 'target', value: (row) => verdict(row.p50 <= 1) },
        ],
        overhead,
      ),
    ]);
    return EXIT.ok;
  } finally {
    if (api.server.listening) await new Promise((resolve) => api.server.close(resolve));
    if (openApi.server.listening) await new Promise((resolve) => openApi.server.close(resolve));
    await api.stop();
    await openApi.stop();
    await close();
    await runtime.close();
    await sql.close();
  }
}

runCli(main);
