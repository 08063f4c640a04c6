import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openScratchDatabase, writeSyntheticCorpus } from '../bench/index.js';
import { PgliteSql, type Sql } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { mean, percentile } from '../eval/index.js';
import type { RetrieveOptions } from '../retrieve/index.js';
import { createRuntime } from '../runtime/index.js';
import { cliConfig, EXIT, runCli } from './cli-support.js';
import { ProgressBar } from './progress-bar.js';

const HELP = `Usage: pnpm bench:search [options]

Search latency on a synthetic corpus: ingests it into each backend (a scratch database), then
times the same queries three ways, at k=10: dense channel alone, BM25 channel alone, and the
full hybrid with rerank. Prints p50, p95 and mean per mode against the targets
(hybrid on Postgres: p50 <= 30 ms, p95 <= 80 ms).

Options:
  --postgres-chunks N   chunks for the Postgres run (default 100000)
  --pglite-chunks N     chunks for the PGlite run (default 10000)
  --queries N           measured queries per mode (default 200), after 20 warm-up queries
  --backends LIST       pglite,postgres (default: both when BENCH_DATABASE_URL or DATABASE_URL is set)
  --json                print the results as JSON on stdout
  -h, --help            show this help

The Postgres run uses the scratch database "agentic_rag_bench_search" on the server of
BENCH_DATABASE_URL (or DATABASE_URL); it is kept between runs and re-ingested only when its
chunk count differs, because loading 100k chunks takes minutes.`;

const BENCH_DATABASE = 'agentic_rag_bench_search';
const SECTIONS_PER_DOCUMENT = 10;
const MODES: Record<string, Pick<RetrieveOptions, 'channels' | 'rerank'>> = {
  dense: { channels: ['vector'], rerank: false },
  lexical: { channels: ['lexical'], rerank: false },
  hybrid: { channels: ['vector', 'lexical'], rerank: true },
};

interface ModeResult {
  backend: string;
  chunks: number;
  mode: string;
  p50: number;
  p95: number;
  mean: number;
  meanHits: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'postgres-chunks': { type: 'string', default: '100000' },
      'pglite-chunks': { type: 'string', default: '10000' },
      queries: { type: 'string', default: '200' },
      backends: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  const config = cliConfig();
  const serverUrl = config.BENCH_DATABASE_URL ?? config.DATABASE_URL;
  const backends = (values.backends ?? (serverUrl ? 'pglite,postgres' : 'pglite')).split(',');
  const queryCount = Number(values.queries);
  if (!Number.isInteger(queryCount) || queryCount < 10)
    throw new RagError(ErrorCode.INVALID_INPUT, '--queries must be >= 10');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const results: ModeResult[] = [];

  for (const backend of backends) {
    if (backend !== 'pglite' && backend !== 'postgres')
      throw new RagError(ErrorCode.INVALID_INPUT, `unknown backend ${backend}`);
    if (backend === 'postgres' && !serverUrl)
      throw new RagError(ErrorCode.INVALID_INPUT, 'postgres needs BENCH_DATABASE_URL or DATABASE_URL');
    const chunks = Number(values[backend === 'postgres' ? 'postgres-chunks' : 'pglite-chunks']);
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-search-'));
    let sql: Sql;
    if (backend === 'postgres') {
      sql = await openScratchDatabase(serverUrl!, BENCH_DATABASE);
    } else {
      sql = await PgliteSql.open({ dataDir: path.join(scratch, 'pglite') });
    }
    try {
      const runtime = await createRuntime({ config, sql });
      const corpus = path.join(scratch, 'corpus');
      const documents = Math.ceil(chunks / SECTIONS_PER_DOCUMENT);
      await writeSyntheticCorpus({
        directory: corpus,
        documents,
        sectionsPerDocument: SECTIONS_PER_DOCUMENT,
        wordsPerSection: 80,
        seed: 7,
      });
      const stored = (await runtime.store.stats('bench')).chunks;
      if (stored !== chunks) {
        if (stored > 0) await sql.query("DELETE FROM rag_workspaces WHERE id = 'bench'");
        log(`bench:search ${backend}: ingesting ${documents} documents (~${chunks} chunks)`);
        const bar = new ProgressBar({ label: `  ingest ${backend}` });
        const summary = await runtime.pipeline.ingestSources({
          workspaceId: 'bench',
          sources: [corpus],
          onProgress: (progress) =>
            bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
        });
        bar.finish();
        log(`bench:search ${backend}: ${summary.chunks} chunks in ${summary.seconds.toFixed(0)} s`);
      } else {
        log(`bench:search ${backend}: reusing ${stored} chunks`);
      }
      // What autovacuum does in a steady state: planner statistics, and a visibility map that lets
      // the BM25 postings be read index-only. Right after a load it has not caught up yet.
      await sql.query('VACUUM ANALYZE');
      const queries = await sampleQueries(corpus, queryCount + 20);
      for (const [mode, options] of Object.entries(MODES)) {
        const latencies: number[] = [];
        const hits: number[] = [];
        for (const [index, query] of queries.entries()) {
          const started = performance.now();
          const result = await runtime.retriever.retrieve({ workspaceId: 'bench', query, k: 10, ...options });
          if (index >= 20) {
            latencies.push(performance.now() - started);
            hits.push(result.hits.length);
          }
        }
        const row = {
          backend,
          chunks: (await runtime.store.stats('bench')).chunks,
          mode,
          p50: percentile(latencies, 0.5),
          p95: percentile(latencies, 0.95),
          mean: mean(latencies),
          meanHits: mean(hits),
        };
        log(`bench:search ${backend} ${mode}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms`);
        results.push(row);
      }
    } finally {
      await sql.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }

  if (values.json) {
    console.log(JSON.stringify({ queries: queryCount, k: 10, results }));
    return EXIT.ok;
  }
  console.log('\nbackend   chunks   mode      p50 ms   p95 ms  mean ms  hits  target');
  for (const row of results) {
    const target =
      row.backend === 'postgres' && row.mode === 'hybrid'
        ? `p50<=30 ${row.p50 <= 30 ? 'met' : 'MISSED'}, p95<=80 ${row.p95 <= 80 ? 'met' : 'MISSED'}`
        : '';
    console.log(
      `${row.backend.padEnd(8)}  ${String(row.chunks).padStart(6)}   ${row.mode.padEnd(8)} ${row.p50.toFixed(1).padStart(7)}  ${row.p95.toFixed(1).padStart(7)}  ${row.mean.toFixed(1).padStart(7)}  ${row.meanHits.toFixed(1).padStart(4)}  ${target}`,
    );
  }
  return EXIT.ok;
}

/** Queries of 3-5 words drawn from random sections of the corpus, so each has answers. */
async function sampleQueries(corpus: string, count: number): Promise<string[]> {
  const folders = (await readdir(corpus)).sort();
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const queries: string[] = [];
  while (queries.length < count) {
    const folder = folders[Math.floor(next() * folders.length)]!;
    const files = (await readdir(path.join(corpus, folder))).sort();
    const text = await readFile(path.join(corpus, folder, files[Math.floor(next() * files.length)]!), 'utf8');
    const words = text
      .replace(/[#.:\d]/g, ' ')
      .split(/\s+/)
      .filter((word) => word.length > 3);
    const start = Math.floor(next() * Math.max(1, words.length - 5));
    queries.push(words.slice(start, start + 3 + Math.floor(next() * 3)).join(' '));
  }
  return queries;
}

runCli(main);
