import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { naiveWriter, writeSyntheticCorpus } from '../bench/index.js';
import type { Config } from '../config/index.js';
import { PgliteSql, PostgresSql, type Sql } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { createRuntime } from '../runtime/index.js';
import { cliConfig, EXIT, formatNumber, runCli } from './cli-support.js';
import { ProgressBar } from './progress-bar.js';

const HELP = `Usage: pnpm bench:ingest [options]

Generates a synthetic Markdown corpus (~1 chunk per section) and ingests it end to end
(load, chunk, embed, write) into each backend twice: with the product's batched writer and with
a naive row-at-a-time INSERT baseline, each in a fresh database and its own process so peak RSS
is measured per run. Prints chunks/s, peak RSS and on-disk size.

Options:
  --chunks N        target chunk count (default 20000)
  --backends LIST   comma-separated: pglite,postgres (default: pglite, plus postgres when
                    BENCH_DATABASE_URL or DATABASE_URL is set)
  --json            print the results as JSON on stdout
  -h, --help        show this help

Postgres runs use a scratch database "agentic_rag_bench" on the server of BENCH_DATABASE_URL
(or DATABASE_URL), dropped and recreated for every run.`;

const SECTIONS_PER_DOCUMENT = 10;
const WORDS_PER_SECTION = 80;
const BENCH_DATABASE = 'agentic_rag_bench';

type Backend = 'pglite' | 'postgres';
type Writer = 'batched' | 'naive';

interface RunResult {
  backend: Backend;
  writer: Writer;
  documents: number;
  chunks: number;
  tokens: number;
  seconds: number;
  chunksPerSecond: number;
  peakRssMb: number;
  diskMb: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      chunks: { type: 'string', default: '20000' },
      backends: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      // Internal: one measured run, started by the parent in a fresh process.
      child: { type: 'string' },
      corpus: { type: 'string' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  const config = cliConfig();
  if (values.child) return runChild(config, values.child, values.corpus!);

  const target = Number(values.chunks);
  if (!Number.isInteger(target) || target < 100)
    throw new RagError(ErrorCode.INVALID_INPUT, '--chunks must be an integer >= 100');
  const serverUrl = config.BENCH_DATABASE_URL ?? config.DATABASE_URL;
  const backends = (values.backends ?? (serverUrl ? 'pglite,postgres' : 'pglite')).split(',') as Backend[];
  for (const backend of backends) {
    if (backend !== 'pglite' && backend !== 'postgres')
      throw new RagError(ErrorCode.INVALID_INPUT, `unknown backend "${backend}"`);
    if (backend === 'postgres' && !serverUrl) {
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        'the postgres backend needs BENCH_DATABASE_URL or DATABASE_URL',
      );
    }
  }

  const log = (line: string) => process.stderr.write(`${line}\n`);
  const corpus = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-corpus-'));
  try {
    const documents = Math.ceil(target / SECTIONS_PER_DOCUMENT);
    log(`bench:ingest generating ${documents} documents (~${target} chunks) in ${corpus}`);
    await writeSyntheticCorpus({
      directory: corpus,
      documents,
      sectionsPerDocument: SECTIONS_PER_DOCUMENT,
      wordsPerSection: WORDS_PER_SECTION,
    });

    const results: RunResult[] = [];
    for (const backend of backends) {
      for (const writer of ['batched', 'naive'] as const) {
        log(`bench:ingest ${backend} / ${writer} ...`);
        const result = await spawnChild(`${backend}:${writer}`, corpus);
        log(
          `bench:ingest ${backend} / ${writer}: ${result.chunks} chunks in ${result.seconds.toFixed(1)} s = ${result.chunksPerSecond.toFixed(0)} chunks/s, peak RSS ${result.peakRssMb.toFixed(0)} MB, disk ${result.diskMb.toFixed(0)} MB`,
        );
        results.push(result);
      }
    }
    if (values.json) console.log(JSON.stringify({ targetChunks: target, results }));
    else printTable(results);
    return EXIT.ok;
  } finally {
    await rm(corpus, { recursive: true, force: true });
  }
}

function printTable(results: RunResult[]): void {
  console.log('');
  console.log(
    'backend   writer    documents   chunks   tokens       seconds  chunks/s  peak RSS MB  disk MB  vs naive',
  );
  for (const result of results) {
    const naive = results.find((other) => other.backend === result.backend && other.writer === 'naive');
    const speedup = naive ? `${(result.chunksPerSecond / naive.chunksPerSecond).toFixed(2)}x` : '';
    console.log(
      [
        result.backend.padEnd(9),
        result.writer.padEnd(9),
        String(result.documents).padStart(9),
        String(result.chunks).padStart(8),
        formatNumber(result.tokens).padStart(12),
        result.seconds.toFixed(1).padStart(8),
        result.chunksPerSecond.toFixed(0).padStart(9),
        result.peakRssMb.toFixed(0).padStart(12),
        result.diskMb.toFixed(0).padStart(8),
        speedup.padStart(9),
      ].join(' '),
    );
  }
}

function spawnChild(spec: string, corpus: string): Promise<RunResult> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, script, '--child', spec, '--corpus', corpus],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`benchmark run ${spec} exited with ${code}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as RunResult);
    });
  });
}

async function runChild(config: Config, spec: string, corpus: string): Promise<number> {
  const [backend, writer] = spec.split(':') as [Backend, Writer];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-db-'));
  let sql: Sql;
  let serverUrl: string | undefined;
  if (backend === 'pglite') {
    sql = await PgliteSql.open({ dataDir: path.join(scratch, 'pglite') });
  } else {
    serverUrl = config.BENCH_DATABASE_URL ?? config.DATABASE_URL!;
    const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
    await admin.close();
    const url = new URL(serverUrl);
    url.pathname = `/${BENCH_DATABASE}`;
    sql = new PostgresSql({ connectionString: url.toString(), maxConnections: 4 });
  }
  try {
    const runtime = await createRuntime({ config, sql });
    const pipeline =
      writer === 'batched'
        ? runtime.pipeline
        : new IngestPipeline({
            store: naiveWriter(sql, runtime.store),
            embedder: runtime.embedder,
            maxTokens: config.CHUNK_MAX_TOKENS,
            overlapTokens: config.CHUNK_OVERLAP_TOKENS,
          });
    const bar = new ProgressBar({ label: `  ${backend}/${writer}` });
    const summary = await pipeline.ingestSources({
      workspaceId: 'bench',
      sources: [corpus],
      onProgress: (progress) =>
        bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
    });
    bar.finish();
    if (summary.failures.length > 0)
      throw new Error(`benchmark ingest failed: ${JSON.stringify(summary.failures[0])}`);
    let diskBytes: number;
    if (backend === 'postgres') {
      const size = await sql.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes');
      diskBytes = size.rows[0]!.bytes;
    } else {
      await sql.close();
      diskBytes = await directorySize(path.join(scratch, 'pglite'));
    }
    const result: RunResult = {
      backend,
      writer,
      documents: summary.documents.added,
      chunks: summary.chunks,
      tokens: summary.tokens,
      seconds: summary.seconds,
      chunksPerSecond: summary.chunksPerSecond,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      diskMb: diskBytes / 1024 / 1024,
    };
    console.log(JSON.stringify(result));
    return EXIT.ok;
  } finally {
    await sql.close();
    if (serverUrl) {
      const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
      await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
      await admin.close();
    }
    await rm(scratch, { recursive: true, force: true });
  }
}

async function directorySize(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

runCli(main);
