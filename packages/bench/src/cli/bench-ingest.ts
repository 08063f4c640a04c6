import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareCorpus, type CorpusName } from '../bench/corpora/index.js';
import {
  benchArguments,
  benchLog,
  benchServerUrl,
  dropScratchDatabase,
  ensureCorpusPackages,
  naiveWriter,
  parseChunkSizes,
  parseCorpus,
  formatTable,
  parseBackends,
  recreateScratchDatabase,
  report,
  requireBenchServer,
  type BenchBackend as Backend,
} from '../bench/index.js';
import { LangchainPgvectorPeer, PEER_BATCH_SIZE } from '../bench/peer/index.js';
import {
  type Config,
  createEmbedder,
  ErrorCode,
  IngestPipeline,
  PgliteSql,
  PostgresSql,
  RagError,
  type Sql,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, EXIT, formatNumber, ProgressBar, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:ingest [options]

Ingests a corpus end to end (read files, chunk, embed, write) once per system and corpus size,
each run in a fresh database and its own process so peak RSS is measured per run. Prints chunks/s,
peak RSS and on-disk size, and per size the ratio of our batched writer to the peer's.

Systems (rows):
  agentic-rag         our pipeline, per backend (pglite, postgres) and writer: "batched" (the
                      product) and "naive" (a row-at-a-time INSERT baseline)
  langchain-pgvector  LangChain.js PGVectorStore (@langchain/community) on the same Postgres
                      server, in its own scratch database: the same files cut by our loader and
                      chunker (so both store identical chunk texts), embedded by the same embedder
                      (ours wrapped as a LangChain Embeddings), added with addDocuments in batches of
                      ${PEER_BATCH_SIZE}. Timed end to end like ours: files in, rows committed, chunking
                      and embedding included for both.

Corpora (--corpus):
  zipf            synthetic Markdown, Zipf vocabulary, ~1 chunk per section (the adversarial case)
  postgres-docs   PostgreSQL 15 manual (postgresql-doc-15, HTML)
  python-docs     Python 3.11 docs (python3.11-doc, HTML)
  linux-docs      Linux 6.1 Documentation/ (linux-doc-6.1, reStructuredText and text)
  debian-docs     all three, interleaved page by page
  Real-text pages become Markdown documents (one per page, the manual's sections as headings)
  taken in a fixed order until our chunker makes N chunks of them, so smaller sizes are prefixes
  of larger ones. At 400-token chunks the manuals hold about 5,500 (postgres), 8,100 (python) and
  30,200 (linux) chunks. When the text runs out the corpus repeats: copy K of a page is written
  under copy-K/ with " (copy K)" appended to its title and every heading (the first pass is
  copy-1/; 1M chunks of debian-docs is about 23 passes).
  The packages are installed by packages/bench/src/bench/provision-corpora.sh (as root).

Options:
  --corpus NAME     zipf (default), postgres-docs, python-docs, linux-docs, debian-docs
  --chunks LIST     corpus sizes in chunks, comma-separated, k/M allowed: 10000,100000,1M
                    (default 20000); one set of rows per size
  --backends LIST   our backends: pglite,postgres (default: pglite, plus postgres when
                    BENCH_DATABASE_URL or DATABASE_URL is set)
  --writers LIST    our writers: batched,naive (default both)
  --skip-peer       do not run langchain-pgvector (it needs a Postgres server)
  --provision       install the corpus's Debian packages first if missing (runs the script above)
  --json            print {"rows":[{system, mode, corpus, chunks, chunksPerSecond, ...}]} on stdout
  -h, --help        show this help

Postgres runs use the scratch databases "agentic_rag_bench" (ours) and "agentic_rag_bench_peer"
on the server of BENCH_DATABASE_URL (or DATABASE_URL), dropped and recreated for every run.`;

const BENCH_DATABASE = 'agentic_rag_bench';
const PEER_DATABASE = 'agentic_rag_bench_peer';

type System = 'agentic-rag' | 'langchain-pgvector';
type Writer = 'batched' | 'naive' | `add-documents-${number}`;

interface RunResult {
  system: System;
  /** `<backend>/<writer>`: postgres/batched, pglite/naive, postgres/add-documents-500. */
  mode: string;
  corpus: CorpusName;
  /** Chunks stored by this run. */
  chunks: number;
  chunksPerSecond: number;
  targetChunks: number;
  backend: Backend;
  writer: Writer;
  documents: number;
  seconds: number;
  peakRssMb: number;
  diskMb: number;
}

type ChildResult = Omit<RunResult, 'corpus' | 'targetChunks'>;

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    corpus: { type: 'string', default: 'zipf' },
    chunks: { type: 'string', default: '20000' },
    backends: { type: 'string' },
    writers: { type: 'string', default: 'batched,naive' },
    'skip-peer': { type: 'boolean', default: false },
    provision: { type: 'boolean', default: false },
    // Internal: one measured run, started by the parent in a fresh process.
    child: { type: 'string' },
    'corpus-dir': { type: 'string' },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  if (values.child) return runChild(config, values.child, values['corpus-dir']!);

  const corpus = parseCorpus(values.corpus);
  const sizes = parseChunkSizes(values.chunks);
  const serverUrl = benchServerUrl(config);
  const backends: Backend[] = parseBackends(values.backends, config);
  const writers = values.writers.split(',') as Writer[];
  for (const writer of writers) {
    if (writer !== 'batched' && writer !== 'naive')
      throw new RagError(ErrorCode.INVALID_INPUT, `unknown writer "${writer}" (batched, naive)`);
  }
  const withPeer = !values['skip-peer'];
  if (withPeer && !serverUrl)
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      'langchain-pgvector needs BENCH_DATABASE_URL or DATABASE_URL (or pass --skip-peer)',
    );
  ensureCorpusPackages(corpus, values.provision);

  const log = benchLog;
  const results: RunResult[] = [];
  for (const targetChunks of sizes) {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-corpus-'));
    try {
      const bar = new ProgressBar({ label: `corpus ${corpus}` });
      const prepared = await prepareCorpus({
        corpus,
        targetChunks,
        directory,
        chunker: { maxTokens: config.CHUNK_MAX_TOKENS, overlapTokens: config.CHUNK_OVERLAP_TOKENS },
        onProgress: (progress) =>
          bar.update(
            Math.min(progress.chunks, targetChunks),
            targetChunks,
            `${progress.documents} documents`,
          ),
      });
      bar.finish();
      log(
        `bench:ingest ${corpus}: ${prepared.documents} documents, ~${prepared.chunks} chunks` +
          `${prepared.copies > 1 ? ` (${prepared.copies} copies of the text)` : ''} in ${directory}`,
      );
      const specs = [
        ...backends.flatMap((backend) => writers.map((writer) => `agentic-rag:${backend}:${writer}`)),
        ...(withPeer ? [`langchain-pgvector:postgres:add-documents-${PEER_BATCH_SIZE}`] : []),
      ];
      for (const spec of specs) {
        log(`bench:ingest ${corpus} ${targetChunks} ${spec} ...`);
        const result = { ...(await spawnChild(spec, directory)), corpus, targetChunks };
        log(
          `bench:ingest ${result.system} ${result.mode}: ${result.chunks} chunks in ${result.seconds.toFixed(1)} s = ${result.chunksPerSecond.toFixed(0)} chunks/s, peak RSS ${result.peakRssMb.toFixed(0)} MB, disk ${result.diskMb.toFixed(0)} MB`,
        );
        results.push(result);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
  report(values.json, { rows: results }, () => humanReport(results));
  return EXIT.ok;
}

/** The table, then each of our runs against the baselines (langchain-pgvector, the naive writer). */
function humanReport(results: RunResult[]): string[] {
  const lines = [
    '',
    formatTable(
      [
        { header: 'system', value: (result: RunResult) => result.system },
        { header: 'mode', value: (result) => result.mode },
        { header: 'corpus', value: (result) => result.corpus },
        { header: 'target', value: (result) => formatNumber(result.targetChunks), align: 'right' },
        { header: 'chunks', value: (result) => result.chunks },
        { header: 'seconds', value: (result) => result.seconds.toFixed(1), align: 'right' },
        { header: 'chunks/s', value: (result) => result.chunksPerSecond.toFixed(0), align: 'right' },
        { header: 'peak RSS MB', value: (result) => result.peakRssMb.toFixed(0), align: 'right' },
        { header: 'disk MB', value: (result) => result.diskMb.toFixed(0), align: 'right' },
      ],
      results,
    ),
    '',
  ];
  for (const target of [...new Set(results.map((result) => result.targetChunks))]) {
    const rows = results.filter((result) => result.targetChunks === target);
    const peer = rows.find((result) => result.system === 'langchain-pgvector');
    for (const ours of rows.filter((result) => result.system === 'agentic-rag')) {
      const naive = rows.find((result) => result.backend === ours.backend && result.writer === 'naive');
      const ratios = [
        peer ? `${(ours.chunksPerSecond / peer.chunksPerSecond).toFixed(2)}x langchain-pgvector` : '',
        naive && naive !== ours ? `${(ours.chunksPerSecond / naive.chunksPerSecond).toFixed(2)}x naive` : '',
      ].filter(Boolean);
      if (ratios.length > 0)
        lines.push(`${formatNumber(target)} chunks, agentic-rag ${ours.mode}: ${ratios.join(', ')}`);
    }
  }
  return lines;
}

function spawnChild(spec: string, corpusDirectory: string): Promise<ChildResult> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, script, '--child', spec, '--corpus-dir', corpusDirectory],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`benchmark run ${spec} exited with ${code}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult);
    });
  });
}

async function runChild(config: Config, spec: string, corpusDirectory: string): Promise<number> {
  const [system, backend, writer] = spec.split(':') as [System, Backend, Writer];
  const result =
    system === 'langchain-pgvector'
      ? await runPeer(config, writer, corpusDirectory)
      : await runOurs(config, backend, writer, corpusDirectory);
  console.log(JSON.stringify(result));
  return EXIT.ok;
}

async function runPeer(config: Config, writer: Writer, corpusDirectory: string): Promise<ChildResult> {
  const serverUrl = requireBenchServer(config, 'langchain-pgvector');
  const databaseUrl = await recreateScratchDatabase(serverUrl, PEER_DATABASE);
  try {
    const peer = await LangchainPgvectorPeer.open({ databaseUrl, embedder: createEmbedder(config) });
    try {
      const bar = new ProgressBar({ label: '  langchain-pgvector' });
      const summary = await peer.ingest({
        directory: corpusDirectory,
        chunker: { maxTokens: config.CHUNK_MAX_TOKENS, overlapTokens: config.CHUNK_OVERLAP_TOKENS },
        batchSize: PEER_BATCH_SIZE,
        onProgress: (progress) =>
          bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
      });
      bar.finish();
      return {
        system: 'langchain-pgvector',
        mode: `postgres/${writer}`,
        backend: 'postgres',
        writer,
        documents: summary.documents,
        chunks: summary.chunks,
        seconds: summary.seconds,
        chunksPerSecond: summary.chunksPerSecond,
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        diskMb: (await peer.diskBytes()) / 1024 / 1024,
      };
    } finally {
      await peer.close();
    }
  } finally {
    await dropScratchDatabase(serverUrl, PEER_DATABASE);
  }
}

async function runOurs(
  config: Config,
  backend: Backend,
  writer: Writer,
  corpusDirectory: string,
): Promise<ChildResult> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-db-'));
  let sql: Sql;
  let serverUrl: string | undefined;
  if (backend === 'pglite') {
    sql = await PgliteSql.open({ dataDir: path.join(scratch, 'pglite') });
  } else {
    serverUrl = requireBenchServer(config, 'postgres');
    sql = new PostgresSql({
      connectionString: await recreateScratchDatabase(serverUrl, BENCH_DATABASE),
      maxConnections: 4,
    });
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
      sources: [corpusDirectory],
      onProgress: (progress) =>
        bar.update(progress.filesDone, progress.filesTotal, `${progress.chunks} chunks`),
    });
    bar.finish();
    if (summary.failures.length > 0)
      throw new Error(`benchmark ingest failed: ${JSON.stringify(summary.failures[0])}`);
    let diskBytes: number;
    if (backend === 'postgres') {
      const size = await sql.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes');
      diskBytes = Number(size.rows[0]!.bytes);
    } else {
      await sql.close();
      diskBytes = await directorySize(path.join(scratch, 'pglite'));
    }
    return {
      system: 'agentic-rag',
      mode: `${backend}/${writer}`,
      backend,
      writer,
      documents: summary.documents.added,
      chunks: summary.chunks,
      seconds: summary.seconds,
      chunksPerSecond: summary.chunksPerSecond,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      diskMb: diskBytes / 1024 / 1024,
    };
  } finally {
    await sql.close();
    if (serverUrl) await dropScratchDatabase(serverUrl, BENCH_DATABASE);
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
