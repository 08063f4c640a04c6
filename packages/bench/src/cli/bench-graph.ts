import { fileURLToPath } from 'node:url';
import {
  benchArguments,
  benchLog,
  formatTable,
  latency,
  latencyColumns,
  openBenchDatabase,
  parseBackends,
  report,
  syntheticGraph,
  target,
} from '../bench/index.js';
import { ErrorCode, expandReferences, PostgresGraphStore, RagError } from '@agentic-rag/core';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { seededRandom } from '@agentic-rag/core/testing';
import { cliConfig, EXIT, ProgressBar, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:graph [options]

Graph latency, per backend:
  neighbourhood   GraphStore.neighbourhood from one random entity, 1 and 2 hops, over a
                  synthetic graph (Zipf-like entity popularity, edges spread over documents),
                  limit 100 entities; each seed walked strongest edges first (the store) and,
                  as the baseline, reading every edge of each frontier entity in full;
                  target on Postgres: 2 hops p95 <= 20 ms at 100k edges
  references      reference expansion (ref_ids, depth 3) of every operation of the sample
                  OpenAPI spec, one at a time, and of all of them at once (the full spec);
                  target: p95 <= 50 ms

Options:
  --edges N       edges of the synthetic graph (default 100000)
  --entities N    entities (default 20000)
  --queries N     measured neighbourhood queries per hop count (default 200), after 20 warm-up
  --backends LIST pglite,postgres (default: both when BENCH_DATABASE_URL or DATABASE_URL is set)
  --json          print the results as JSON on stdout
  -h, --help      show this help

The Postgres run uses the scratch database "agentic_rag_bench_graph" on the server of
BENCH_DATABASE_URL (or DATABASE_URL); it is kept between runs and rebuilt when its edge count
differs.`;

const BENCH_DATABASE = 'agentic_rag_bench_graph';
const WORKSPACE = 'bench-graph';
const SPEC_WORKSPACE = 'bench-spec';
const SOURCES = 2000;
const SPEC = fileURLToPath(
  new URL('../../../../simulated_ingestion/northwind-logistics/api/openapi.yaml', import.meta.url),
);

interface Row {
  backend: string;
  case: string;
  size: string;
  p50: number;
  p95: number;
  mean: number;
  target: string;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    edges: { type: 'string', default: '100000' },
    entities: { type: 'string', default: '20000' },
    queries: { type: 'string', default: '200' },
    backends: { type: 'string' },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  const backends = parseBackends(values.backends, config);
  const [edges, entities, queries] = [values.edges, values.entities, values.queries].map(Number) as [
    number,
    number,
    number,
  ];
  if (![edges, entities, queries].every((value) => Number.isInteger(value) && value >= 10)) {
    throw new RagError(ErrorCode.INVALID_INPUT, '--edges, --entities and --queries must be integers >= 10');
  }
  const log = benchLog;
  const rows: Row[] = [];

  for (const backend of backends) {
    const { sql, dispose } = await openBenchDatabase(backend, { config, database: BENCH_DATABASE });
    let runtime: RagRuntime | undefined;
    try {
      runtime = await createRuntime({ config: { ...config, NEO4J_URI: undefined }, sql });
      await loadGraph(runtime, { edges, entities }, log, backend);
      await sql.query('VACUUM ANALYZE');

      // The baseline reads every (summed) edge of each frontier entity, with no strongest-first
      // cut; both answer the same seeds in turn.
      const stores = {
        'strongest first': runtime.graph,
        'every edge': new PostgresGraphStore(sql, { readEveryEdge: true }),
      };
      const next = seededRandom(5);
      for (const hops of [1, 2]) {
        const latencies = new Map<string, number[]>(Object.keys(stores).map((name) => [name, []]));
        for (let query = 0; query < queries + 20; query++) {
          const seed = `Concept:entity ${Math.floor(next() * entities)}`;
          for (const [name, store] of Object.entries(stores)) {
            const started = performance.now();
            await store.neighbourhood({ workspaceId: WORKSPACE, seeds: [seed], hops, limit: 100 });
            if (query >= 20) latencies.get(name)!.push(performance.now() - started);
          }
        }
        for (const [name, measured] of latencies) {
          const figures = latency(measured);
          const measuredTarget = hops === 2 && backend === 'postgres' && name === 'strongest first';
          rows.push({
            backend,
            case: `${hops} hop${hops > 1 ? 's' : ''}, ${name}`,
            size: `${edges} edges`,
            ...figures,
            target: measuredTarget ? target('p95', figures.p95, 20) : '',
          });
          log(`bench:graph ${backend} neighbourhood ${hops}, ${name}: p95 ${figures.p95.toFixed(1)} ms`);
        }
      }
      rows.push(...(await benchReferences(runtime, backend, log)));
    } finally {
      // The runtime's stores and caches before the connection they use.
      await runtime?.close();
      await dispose();
    }
  }

  report(values.json, { queries, rows }, () => [
    '',
    formatTable(
      [
        { header: 'backend', value: (row: Row) => row.backend },
        { header: 'case', value: (row) => row.case },
        { header: 'size', value: (row) => row.size },
        ...latencyColumns<Row>(1),
        { header: 'target', value: (row) => row.target },
      ],
      rows,
    ),
  ]);
  return EXIT.ok;
}

/** One single-chunk document per source (mentions need chunk rows), then its graph facts. */
async function loadGraph(
  runtime: RagRuntime,
  size: { edges: number; entities: number },
  log: (line: string) => void,
  backend: string,
): Promise<void> {
  const graphs = syntheticGraph({ workspaceId: WORKSPACE, ...size, sources: SOURCES });
  // Relation rows: a source's repeated (from, to, type) triples are stored once, weights summed.
  const expected = graphs.reduce(
    (sum, graph) => sum + new Set(graph.relations.map((r) => `${r.from}\u0000${r.to}\u0000${r.type}`)).size,
    0,
  );
  const stats = await runtime.graph.stats({ workspaceId: WORKSPACE });
  if (stats.relations === expected) {
    log(`bench:graph ${backend}: reusing ${stats.relations} edges`);
    return;
  }
  await runtime.sql.query('DELETE FROM rag_workspaces WHERE id = $1', [WORKSPACE]);
  const bar = new ProgressBar({ label: `  load ${backend}` });
  const unit = Array.from({ length: runtime.embedder.dimensions }, (_, axis) => (axis === 0 ? 1 : 0));
  await runtime.store.withBulkLoad(async () => {
    for (const [index, graph] of graphs.entries()) {
      await runtime.store.writeDocument({
        workspaceId: WORKSPACE,
        sourcePath: graph.sourcePath,
        sourceFile: graph.sourcePath,
        sourceRoot: 'graph',
        kind: 'text',
        title: null,
        url: null,
        content: graph.sourcePath,
        contentHash: graph.sourcePath,
        pipelineFingerprint: 'bench-graph',
        tokenCount: 1,
        metadata: {},
        embeddingModel: runtime.embedder.modelId,
        embeddingDimensions: runtime.embedder.dimensions,
        chunks: [
          {
            chunkId: `${graph.sourcePath}#0`,
            index: 0,
            text: graph.sourcePath,
            tokenCount: 1,
            start: 0,
            end: graph.sourcePath.length,
            sectionPath: [],
            metadata: {},
            embedding: unit,
          },
        ],
        graph,
      });
      bar.update(index + 1, graphs.length, `${(index + 1) * Math.ceil(size.edges / SOURCES)} edges`);
    }
  });
  bar.finish();
  const loaded = await runtime.graph.stats({ workspaceId: WORKSPACE });
  log(`bench:graph ${backend}: ${loaded.entities} entities, ${loaded.relations} edges`);
}

/** Expansion from each operation of the sample spec alone, and from all of them at once. */
async function benchReferences(
  runtime: RagRuntime,
  backend: string,
  log: (line: string) => void,
): Promise<Row[]> {
  await runtime.pipeline.ingestSources({ workspaceId: SPEC_WORKSPACE, sources: [SPEC] });
  const operations = await runtime.sql.query<{
    id: number;
    document_id: number;
    source_path: string;
    chunk_id: string;
  }>(
    `SELECT c.id, c.document_id, d.source_path, c.chunk_id
     FROM rag_documents d JOIN rag_chunks c ON c.document_id = d.id
     WHERE d.workspace_id = $1 AND d.metadata ->> 'chunk_type' = 'endpoint' AND c.chunk_index = 0
     ORDER BY d.source_path`,
    [SPEC_WORKSPACE],
  );
  const hits = operations.rows.map((row) => ({
    id: row.id,
    chunkId: row.chunk_id,
    documentId: row.document_id,
    sourcePath: row.source_path,
    kind: 'openapi',
    title: null,
    url: null,
    text: '',
    tokenCount: 0,
    startOffset: 0,
    endOffset: 0,
    sectionPath: '',
    metadata: {},
    score: 1,
    fusedScore: 1,
    channels: {},
  }));
  const settings = { maxDepth: 3, maxChunks: 1000, timeoutMs: 60_000 };
  const single: number[] = [];
  const whole: number[] = [];
  let reached = 0;
  for (let round = 0; round < 6; round++) {
    for (const hit of hits) {
      const started = performance.now();
      await expandReferences(runtime.chunks, SPEC_WORKSPACE, [hit], settings);
      if (round > 0) single.push(performance.now() - started);
    }
    const started = performance.now();
    const all = await expandReferences(runtime.chunks, SPEC_WORKSPACE, hits, settings);
    if (round > 0) whole.push(performance.now() - started);
    reached = all.references.length;
  }
  log(`bench:graph ${backend} references: ${hits.length} operations, ${reached} referenced chunks from all`);
  const row = (name: string, size: string, latencies: number[]): Row => {
    const figures = latency(latencies);
    return { backend, case: name, size, ...figures, target: target('p95', figures.p95, 50) };
  };
  return [
    row('references, 1 operation', `${hits.length} operations`, single),
    row('references, full spec', `${reached} chunks`, whole),
  ];
}

runCli(main);
