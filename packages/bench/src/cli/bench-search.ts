import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prepareCorpus, type CorpusName, type PreparedCorpus } from '../bench/corpora/index.js';
import { LangchainPgvectorPeer } from '../bench/peer/index.js';
import {
  benchArguments,
  benchLog,
  databaseUrl,
  formatTable,
  latency,
  report,
  verdict,
  parseBackends,
  requireBenchServer,
  ensureCorpusPackages,
  parseChunkSizes,
  parseCorpus,
  readScratchMarker,
  recreateScratchDatabase,
  writeScratchMarker,
} from '../bench/index.js';
import {
  type Config,
  createEmbedder,
  ErrorCode,
  PgliteSql,
  PostgresSql,
  RagError,
  type RetrieveOptions,
  type Sql,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, EXIT, formatNumber, ProgressBar, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:search [options]

Search latency, ours against LangChain.js PGVectorStore, on one corpus at one or more sizes. Ours
is timed three ways at k=10 (dense channel alone, BM25 channel alone, full hybrid with rerank);
the peer (langchain-pgvector) with similaritySearch(query, 10): an exact cosine scan, as it keeps
no ANN index. Both are timed end to end as a user sees them: the query is embedded by the same
embedder (ours wrapped as a LangChain Embeddings) inside the timed call, for both. Both hold the
same chunk texts: the peer's are cut from the same files by our loader and chunker.

Mode "search" is what GraphQL search runs (the configured channels, the graph's included). The
PGlite run also times every mode on a workspace of one document in the same database, the
size-free baseline, and prints the ratio.

Prints p50, p95 and mean per system and mode, the ratios to the peer, and the targets:
  embedded (PGlite) search p50 <= 2x that of the one-document workspace
  hybrid p95 <= 1/3 of the peer's dense p95
  lexical p95 <= 30 ms on real text, <= 80 ms on zipf
  hybrid p95 < 100 ms at 1M chunks

Corpora (--corpus): zipf (synthetic, the adversarial case; the default), postgres-docs,
python-docs, linux-docs, debian-docs (all three). See pnpm bench:ingest --help for how they are
built and repeated up to 1M chunks. Real-text queries are section headings sampled with a fixed
seed; zipf queries are 3-5 word runs from its text.

Options:
  --corpus NAME         corpus (default zipf)
  --chunks LIST         Postgres sizes, comma-separated, k/M allowed: 10000,100000,1M
                        (default 100000); rows per size make the scaling curve
  --pglite-chunks N     size for the PGlite run (default 10000)
  --queries N           measured queries per mode (default 200), after 20 warm-up queries
  --backends LIST       pglite,postgres (default: both when BENCH_DATABASE_URL or DATABASE_URL is set)
  --skip-peer           do not run langchain-pgvector
  --fresh               reload the kept databases even when they hold this corpus and size
  --provision           install the corpus's Debian packages first if missing
  --json                print {"rows":[{system, mode, corpus, chunks, p50Ms, p95Ms, ...}]}
  -h, --help            show this help

Postgres runs use the scratch databases "agentic_rag_bench_search" (ours) and
"agentic_rag_bench_search_peer" on the server of BENCH_DATABASE_URL (or DATABASE_URL). They are
kept between runs and reloaded only when the corpus, size, chunker or embedder differ; drop them
with DROP DATABASE when done.`;

const OUR_DATABASE = 'agentic_rag_bench_search';
const PEER_DATABASE = 'agentic_rag_bench_search_peer';
const WARM_UP = 20;
const MODES: Record<string, Pick<RetrieveOptions, 'channels' | 'rerank'>> = {
  dense: { channels: ['vector'], rerank: false },
  lexical: { channels: ['lexical'], rerank: false },
  hybrid: { channels: ['vector', 'lexical'], rerank: true },
  // What GraphQL \`search\` runs: the configured channels (the graph's included) and rerank.
  search: {},
};
/** The workspace of one document, timed in the same database: the size-free baseline. */
const ONE_DOCUMENT = 'bench-one';

interface Row {
  system: 'agentic-rag' | 'langchain-pgvector';
  mode: string;
  corpus: CorpusName;
  chunks: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  meanHits: number;
  backend: 'pglite' | 'postgres';
  targetChunks: number;
  /** The corpus's workspace, or the one-document baseline's. */
  workspace: 'corpus' | 'one document';
}

interface RunOptions {
  config: Config;
  corpus: CorpusName;
  targetChunks: number;
  queryCount: number;
  withPeer: boolean;
  fresh: boolean;
  log: (line: string) => void;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    corpus: { type: 'string', default: 'zipf' },
    chunks: { type: 'string' },
    'postgres-chunks': { type: 'string' },
    'pglite-chunks': { type: 'string', default: '10000' },
    queries: { type: 'string', default: '200' },
    backends: { type: 'string' },
    'skip-peer': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    provision: { type: 'boolean', default: false },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  const backends = parseBackends(values.backends, config);
  const queryCount = Number(values.queries);
  if (!Number.isInteger(queryCount) || queryCount < 10)
    throw new RagError(ErrorCode.INVALID_INPUT, '--queries must be >= 10');
  const corpus = parseCorpus(values.corpus);
  const postgresSizes = parseChunkSizes(values.chunks ?? values['postgres-chunks'] ?? '100000');
  const [pgliteChunks] = parseChunkSizes(values['pglite-chunks']);
  ensureCorpusPackages(corpus, values.provision);
  const log = benchLog;
  const base = { config, corpus, queryCount, fresh: values.fresh, log };

  const rows: Row[] = [];
  for (const backend of backends) {
    if (backend === 'pglite') {
      rows.push(...(await runPglite({ ...base, targetChunks: pgliteChunks!, withPeer: false })));
    } else {
      for (const targetChunks of postgresSizes)
        rows.push(
          ...(await runPostgres(requireBenchServer(config, 'postgres'), {
            ...base,
            targetChunks,
            withPeer: !values['skip-peer'],
          })),
        );
    }
  }
  report(values.json, { rows }, () => humanReport(rows));
  return EXIT.ok;
}

async function buildCorpus(options: RunOptions, directory: string): Promise<PreparedCorpus> {
  const bar = new ProgressBar({ label: `corpus ${options.corpus}` });
  const prepared = await prepareCorpus({
    corpus: options.corpus,
    targetChunks: options.targetChunks,
    directory,
    chunker: {
      maxTokens: options.config.CHUNK_MAX_TOKENS,
      overlapTokens: options.config.CHUNK_OVERLAP_TOKENS,
    },
    zipfSeed: 7,
    onProgress: (progress) =>
      bar.update(
        Math.min(progress.chunks, options.targetChunks),
        options.targetChunks,
        `${progress.documents} documents`,
      ),
  });
  bar.finish();
  return prepared;
}

async function ingestOurs(sql: Sql, options: RunOptions, prepared: PreparedCorpus): Promise<void> {
  const runtime = await createRuntime({ config: options.config, sql });
  options.log(
    `bench:search agentic-rag: ingesting ${prepared.documents} documents (~${prepared.chunks} chunks)`,
  );
  const bar = new ProgressBar({ label: '  ingest agentic-rag' });
  const summary = await runtime.pipeline.ingestSources({
    workspaceId: 'bench',
    sources: [prepared.directory],
    onProgress: (progress) =>
      bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
  });
  bar.finish();
  options.log(`bench:search agentic-rag: ${summary.chunks} chunks in ${summary.seconds.toFixed(0)} s`);
}

/** p50, p95, mean and mean hit count of `search` over the queries after the warm-up ones. */
async function time(queries: readonly string[], search: (query: string) => Promise<number>) {
  const latencies: number[] = [];
  const hits: number[] = [];
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    const count = await search(query);
    if (index >= WARM_UP) {
      latencies.push(performance.now() - started);
      hits.push(count);
    }
  }
  const { p50, p95, mean } = latency(latencies);
  return { p50Ms: p50, p95Ms: p95, meanMs: mean, meanHits: latency(hits).mean };
}

async function timeOurs(
  sql: Sql,
  options: RunOptions,
  queries: readonly string[],
  backend: Row['backend'],
  workspace: Row['workspace'] = 'corpus',
): Promise<Row[]> {
  const runtime = await createRuntime({ config: options.config, sql });
  const workspaceId = workspace === 'corpus' ? 'bench' : ONE_DOCUMENT;
  // What autovacuum does in a steady state: planner statistics, and a visibility map that lets
  // the BM25 postings be read index-only. Right after a load it has not caught up yet.
  await sql.query('VACUUM ANALYZE');
  const chunks = (await runtime.store.stats(workspaceId)).chunks;
  const rows: Row[] = [];
  for (const [mode, modeOptions] of Object.entries(MODES)) {
    // Each stage's time per question (analysis, channels, fusion, rerank), to say where it goes.
    const stageMs = new Map<string, number[]>();
    const timing = await time(queries, async (query) => {
      const result = await runtime.retriever.retrieve({ workspaceId, query, k: 10, ...modeOptions });
      for (const stage of result.stats.stages)
        stageMs.set(stage.name, [...(stageMs.get(stage.name) ?? []), stage.ms]);
      return result.hits.length;
    });
    const stageMedians = [...stageMs.entries()]
      .map(([name, values]) => `${name} ${latency(values.slice(WARM_UP)).p50.toFixed(1)}`)
      .join(', ');
    options.log(
      `bench:search agentic-rag ${backend} ${workspace} ${mode}: p50 ${timing.p50Ms.toFixed(1)} ms, p95 ${timing.p95Ms.toFixed(1)} ms (stage p50 ms: ${stageMedians})`,
    );
    rows.push({
      system: 'agentic-rag',
      mode,
      corpus: options.corpus,
      chunks,
      backend,
      targetChunks: options.targetChunks,
      workspace,
      ...timing,
    });
  }
  return rows;
}

async function runPglite(options: RunOptions): Promise<Row[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-search-'));
  const sql = await PgliteSql.open({ dataDir: path.join(scratch, 'pglite') });
  try {
    const prepared = await buildCorpus(options, path.join(scratch, 'corpus'));
    await ingestOurs(sql, options, prepared);
    const runtime = await createRuntime({ config: options.config, sql });
    await runtime.pipeline.ingestSources({
      workspaceId: ONE_DOCUMENT,
      sources: [await firstFile(prepared.directory)],
    });
    const queries = await prepared.queries(options.queryCount + WARM_UP);
    return [
      ...(await timeOurs(sql, options, queries, 'pglite')),
      ...(await timeOurs(sql, options, queries, 'pglite', 'one document')),
    ];
  } finally {
    await sql.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The corpus's first file in name order: the one-document baseline's document. */
async function firstFile(directory: string): Promise<string> {
  const entries = (await readdir(directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  if (entries.length === 0)
    throw new RagError(ErrorCode.INVALID_INPUT, `the corpus at ${directory} has no file`);
  return entries[0]!;
}

/**
 * Ours and the peer on the Postgres server, each in its kept scratch database: both are loaded
 * from one corpus written once, and reused when their marker says they hold this corpus and size.
 */
async function runPostgres(serverUrl: string, options: RunOptions): Promise<Row[]> {
  const { config, log } = options;
  const embedder = createEmbedder(config);
  const fingerprint = [
    options.corpus,
    options.targetChunks,
    `chunk ${config.CHUNK_MAX_TOKENS}/${config.CHUNK_OVERLAP_TOKENS}`,
    `${embedder.modelId}/${embedder.dimensions}`,
  ].join(' ');
  const wanted = options.queryCount + WARM_UP;
  const ourMarker = options.fresh ? undefined : await readScratchMarker(serverUrl, OUR_DATABASE);
  const peerMarker =
    options.fresh || !options.withPeer ? undefined : await readScratchMarker(serverUrl, PEER_DATABASE);
  const reuseOurs = ourMarker?.fingerprint === fingerprint && ourMarker.queries.length >= wanted;
  const reusePeer = !options.withPeer || (peerMarker?.fingerprint === fingerprint && reuseOurs);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-search-'));
  try {
    let queries = ourMarker?.queries.slice(0, wanted) ?? [];
    if (!reuseOurs || !reusePeer) {
      const prepared = await buildCorpus(options, path.join(scratch, 'corpus'));
      log(
        `bench:search ${options.corpus}: ${prepared.documents} documents, ~${prepared.chunks} chunks` +
          (prepared.copies > 1 ? ` (${prepared.copies} copies of the text)` : ''),
      );
      queries = await prepared.queries(Math.max(wanted, 1000));
      if (!reuseOurs) {
        const sql = new PostgresSql({
          connectionString: await recreateScratchDatabase(serverUrl, OUR_DATABASE),
          maxConnections: 4,
        });
        try {
          await ingestOurs(sql, options, prepared);
        } finally {
          await sql.close();
        }
        await writeScratchMarker(serverUrl, OUR_DATABASE, { fingerprint, queries });
      }
      if (options.withPeer && !reusePeer) {
        const peer = await LangchainPgvectorPeer.open({
          databaseUrl: await recreateScratchDatabase(serverUrl, PEER_DATABASE),
          embedder,
        });
        try {
          const bar = new ProgressBar({ label: '  ingest langchain-pgvector' });
          const summary = await peer.ingest({
            directory: prepared.directory,
            chunker: { maxTokens: config.CHUNK_MAX_TOKENS, overlapTokens: config.CHUNK_OVERLAP_TOKENS },
            onProgress: (progress) =>
              bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
          });
          bar.finish();
          log(`bench:search langchain-pgvector: ${summary.chunks} chunks in ${summary.seconds.toFixed(0)} s`);
        } finally {
          await peer.close();
        }
        await writeScratchMarker(serverUrl, PEER_DATABASE, { fingerprint, queries: [] });
      }
      queries = queries.slice(0, wanted);
    } else {
      log(
        `bench:search ${options.corpus} ${formatNumber(options.targetChunks)}: reusing the loaded databases`,
      );
    }

    const sql = new PostgresSql({
      connectionString: databaseUrl(serverUrl, OUR_DATABASE),
      maxConnections: 4,
    });
    const rows: Row[] = [];
    try {
      rows.push(...(await timeOurs(sql, options, queries, 'postgres')));
    } finally {
      await sql.close();
    }
    if (options.withPeer) {
      const peer = await LangchainPgvectorPeer.open({
        databaseUrl: databaseUrl(serverUrl, PEER_DATABASE),
        embedder,
      });
      try {
        await peer.vacuumAnalyze();
        const timing = await time(queries, (query) => peer.search(query, 10));
        log(
          `bench:search langchain-pgvector dense: p50 ${timing.p50Ms.toFixed(1)} ms, p95 ${timing.p95Ms.toFixed(1)} ms`,
        );
        rows.push({
          system: 'langchain-pgvector',
          mode: 'dense',
          corpus: options.corpus,
          chunks: await peer.count(),
          backend: 'postgres',
          targetChunks: options.targetChunks,
          workspace: 'corpus',
          ...timing,
        });
      } finally {
        await peer.close();
      }
    }
    return rows;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The table, each of our rows against the peer's dense p95 (the baseline), then the targets. */
function humanReport(rows: Row[]): string[] {
  const ratio = (row: Row) => {
    const peer = peerOf(rows, row);
    return peer && row.system === 'agentic-rag' ? `${(row.p95Ms / peer.p95Ms).toFixed(2)}x` : '';
  };
  return [
    '',
    formatTable(
      [
        { header: 'system', value: (row: Row) => row.system },
        { header: 'backend', value: (row) => row.backend },
        { header: 'corpus', value: (row) => row.corpus },
        { header: 'chunks', value: (row) => row.chunks },
        { header: 'workspace', value: (row) => row.workspace },
        { header: 'mode', value: (row) => row.mode },
        { header: 'p50 ms', value: (row) => row.p50Ms.toFixed(1), align: 'right' },
        { header: 'p95 ms', value: (row) => row.p95Ms.toFixed(1), align: 'right' },
        { header: 'mean ms', value: (row) => row.meanMs.toFixed(1), align: 'right' },
        { header: 'hits', value: (row) => row.meanHits.toFixed(1), align: 'right' },
        { header: 'vs peer p95', value: ratio, align: 'right' },
      ],
      rows,
    ),
    '',
    ...targetLines(rows),
  ];
}

function peerOf(rows: Row[], row: Row): Row | undefined {
  return rows.find(
    (other) =>
      other.system === 'langchain-pgvector' &&
      other.backend === row.backend &&
      other.targetChunks === row.targetChunks,
  );
}

/** One line per target and Postgres size: what was measured, and met or MISSED. */
function targetLines(rows: Row[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.backend !== 'pglite' || row.workspace !== 'corpus' || row.mode !== 'search') continue;
    const one = rows.find(
      (other) => other.backend === 'pglite' && other.workspace === 'one document' && other.mode === 'search',
    );
    if (one)
      lines.push(
        `target embedded ${formatNumber(row.chunks)} chunks: search p50 ${row.p50Ms.toFixed(1)} ms <= 2x one document's (${(2 * one.p50Ms).toFixed(1)} ms): ${verdict(row.p50Ms <= 2 * one.p50Ms)} (${(row.p50Ms / one.p50Ms).toFixed(1)}x)`,
      );
  }
  for (const row of rows) {
    if (row.system !== 'agentic-rag' || row.backend !== 'postgres') continue;
    const size = `${formatNumber(row.chunks)} chunks`;
    const peer = peerOf(rows, row);
    if (row.mode === 'hybrid' && peer) {
      const limit = peer.p95Ms / 3;
      lines.push(
        `target ${size}: hybrid p95 ${row.p95Ms.toFixed(1)} ms <= 1/3 of langchain-pgvector dense p95 (${limit.toFixed(1)} ms): ${verdict(row.p95Ms <= limit)}`,
      );
    }
    if (row.mode === 'lexical') {
      const limit = row.corpus === 'zipf' ? 80 : 30;
      lines.push(
        `target ${size}: lexical p95 ${row.p95Ms.toFixed(1)} ms <= ${limit} ms: ${verdict(row.p95Ms <= limit)}`,
      );
    }
    if (row.mode === 'hybrid' && row.targetChunks >= 1_000_000) {
      lines.push(
        `target ${size}: hybrid p95 ${row.p95Ms.toFixed(1)} ms < 100 ms: ${verdict(row.p95Ms < 100)}`,
      );
    }
  }
  return lines;
}

runCli(main);
