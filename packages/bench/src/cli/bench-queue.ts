import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchArguments,
  benchLog,
  benchServerUrl,
  databaseUrl,
  formatTable,
  openScratchDatabase,
  report,
  startSlowEmbeddingServer,
  writeSyntheticCorpus,
} from '../bench/index.js';
import { ErrorCode, IngestQueue, RagError } from '@agentic-rag/core';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { childEnvironment, cliConfig, EXIT, ProgressBar, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:queue [options]

Ingestion of the same synthetic corpus three ways, each into an empty workspace: inline (this
process, 4 documents in flight: the baseline), and through the BullMQ queue with 1 and with 2
worker processes (pnpm worker, AGENTIC_RAG_WORKER_CONCURRENCY jobs at a time each, default 2).
Prints chunks/s and the queue's overhead per job ((queued with 1 worker − inline) / jobs),
then the enqueue cost alone.

Then one big document through a remote embedder (a local OpenAI-compatible server that takes
--embed-latency ms per request of RAG_EMBEDDER_BATCH_SIZE texts): in one job (unsplit), and split
into stage jobs of 64 chunks with 1 and 2 workers, the embedding and stage caches emptied first.

Options:
  --documents N   Markdown files of 10 sections (about 10 chunks) each (default 200)
  --big-chunks N  sections (about one chunk each) of the big document (default 1024, at most 4000)
  --embed-latency MS  the embedding server's time per request (default 250)
  --json          print the results as JSON on stdout
  -h, --help      show this help

Needs REDIS_URL and BENCH_DATABASE_URL (or DATABASE_URL); runs in the scratch database
"agentic_rag_bench_queue" on that server, on a queue of its own.`;

const DATABASE = 'agentic_rag_bench_queue';
const WORKER = fileURLToPath(new URL('../../../../apps/worker/src/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface Row {
  mode: string;
  workers: number;
  documents: number;
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
  overheadMsPerJob: number | null;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    documents: { type: 'string', default: '200' },
    'big-chunks': { type: 'string', default: '1024' },
    'embed-latency': { type: 'string', default: '250' },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  const serverUrl = benchServerUrl(config);
  if (!serverUrl || !config.REDIS_URL) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      'bench:queue needs REDIS_URL and BENCH_DATABASE_URL or DATABASE_URL',
    );
  }
  const documents = Number(values.documents);
  if (!Number.isInteger(documents) || documents < 1)
    throw new RagError(ErrorCode.INVALID_INPUT, '--documents must be a positive integer');
  const bigChunks = Number(values['big-chunks']);
  if (!Number.isInteger(bigChunks) || bigChunks < 1 || bigChunks > 4000)
    throw new RagError(ErrorCode.INVALID_INPUT, '--big-chunks must be an integer from 1 to 4000');
  const latencyMs = Number(values['embed-latency']);
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new RagError(ErrorCode.INVALID_INPUT, '--embed-latency must be a number of milliseconds');
  const log = benchLog;

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-queue-'));
  const corpus = path.join(scratch, 'corpus');
  await writeSyntheticCorpus({
    directory: corpus,
    documents,
    sectionsPerDocument: 10,
    wordsPerSection: 80,
    seed: 9,
  });
  const sql = await openScratchDatabase(serverUrl, DATABASE);
  // The workers reach the same scratch database through their own DATABASE_URL.
  const scratchUrl = databaseUrl(serverUrl, DATABASE);
  const queueName = `bench-queue-${randomUUID().slice(0, 8)}`;
  const benchConfig = {
    ...config,
    AGENTIC_RAG_QUEUE_NAME: queueName,
    AGENTIC_RAG_INGEST_MODE: 'queue' as const,
  };
  const runtime = await createRuntime({ config: benchConfig, sql });
  const queue = new IngestQueue(benchConfig, runtime.jobs);
  const rows: Row[] = [];
  try {
    const inline = await measure(runtime, 'inline', 0, corpus, async (workspaceId) => {
      const bar = new ProgressBar({ label: '  inline' });
      await runtime.pipeline.ingestSources({
        workspaceId,
        sources: [corpus],
        onProgress: (progress) => bar.update(progress.filesDone, progress.filesTotal, ''),
      });
      bar.finish();
    });
    rows.push(inline);
    log(`bench:queue inline: ${inline.chunksPerSecond.toFixed(1)} chunks/s`);

    for (const workers of [1, 2]) {
      const processes = await Promise.all(
        Array.from({ length: workers }, () => startWorker(scratchUrl, config.REDIS_URL!, queueName)),
      );
      try {
        const row = await measure(runtime, 'queue', workers, corpus, async (workspaceId) => {
          const { ids } = await queue.enqueuePaths(workspaceId, [corpus]);
          const bar = new ProgressBar({ label: `  queue x${workers}` });
          const result = await queue.waitFor(ids, (done, total) => bar.update(done, total, ''));
          bar.finish();
          if (result.dead > 0) throw new RagError(ErrorCode.INTERNAL, `${result.dead} jobs died`);
        });
        row.overheadMsPerJob = workers === 1 ? ((row.seconds - inline.seconds) * 1000) / documents : null;
        rows.push(row);
        log(`bench:queue ${workers} worker(s): ${row.chunksPerSecond.toFixed(1)} chunks/s`);
      } finally {
        await Promise.all(processes.map(stopWorker));
      }
    }

    // Enqueueing alone: reading and hashing each file, a rag_jobs row and a Redis job.
    const enqueueWorkspace = `bench-enqueue-${randomUUID().slice(0, 8)}`;
    const started = performance.now();
    const { ids } = await queue.enqueuePaths(enqueueWorkspace, [corpus]);
    const enqueueMs = (performance.now() - started) / ids.length;
    log(`bench:queue enqueue: ${enqueueMs.toFixed(2)} ms per job`);
    // Those jobs were only for timing: no worker of the next runs may pick them up.
    await queue.queue.obliterate({ force: true });

    // One big document through a slow remote embedder: what splitting it into stage jobs buys.
    const big = path.join(scratch, 'big');
    await writeSyntheticCorpus({
      directory: big,
      documents: 1,
      sectionsPerDocument: bigChunks,
      wordsPerSection: 80,
      seed: 11,
    });
    const server = await startSlowEmbeddingServer({
      latencyMs,
      dimensions: config.RAG_EMBEDDING_DIMENSIONS,
    });
    try {
      for (const [label, workers, batch] of [
        ['unsplit', 1, 4096],
        ['split', 1, 64],
        ['split', 2, 64],
      ] as const) {
        await sql.query("DELETE FROM rag_embedding_cache WHERE model = 'openai-compatible:bench-remote'");
        await sql.query('DELETE FROM rag_stage_outputs');
        const processes = await Promise.all(
          Array.from({ length: workers }, () =>
            startWorker(scratchUrl, config.REDIS_URL!, queueName, {
              RAG_EMBEDDER: 'openai',
              RAG_EMBEDDER_BASE_URL: server.url,
              RAG_EMBEDDER_MODEL: 'bench-remote',
              AGENTIC_RAG_STAGE_BATCH_SIZE: String(batch),
            }),
          ),
        );
        try {
          const requestsBefore = server.requests();
          const row = await measure(runtime, `big-${label}`, workers, big, async (workspaceId) => {
            const { ids } = await queue.enqueuePaths(workspaceId, [big]);
            const result = await queue.waitFor(ids);
            if (result.dead > 0) throw new RagError(ErrorCode.INTERNAL, 'the big document died');
          });
          rows.push(row);
          log(
            `bench:queue big document ${label}, ${workers} worker(s): ${row.chunksPerSecond.toFixed(1)} chunks/s, ${server.requests() - requestsBefore} embedding requests`,
          );
        } finally {
          await Promise.all(processes.map(stopWorker));
        }
      }
    } finally {
      await server.close();
    }
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });

    report(values.json, { documents, rows, enqueueMsPerJob: enqueueMs }, () => [
      '',
      formatTable(
        [
          { header: 'mode', value: (row: Row) => row.mode },
          { header: 'workers', value: (row) => row.workers },
          { header: 'documents', value: (row) => row.documents },
          { header: 'chunks', value: (row) => row.chunks },
          { header: 'seconds', value: (row) => row.seconds.toFixed(1), align: 'right' },
          { header: 'chunks/s', value: (row) => row.chunksPerSecond.toFixed(1), align: 'right' },
          {
            header: 'overhead ms/job',
            value: (row) => row.overheadMsPerJob?.toFixed(1) ?? '',
            align: 'right',
          },
        ],
        rows,
      ),
      `enqueue alone: ${enqueueMs.toFixed(2)} ms per job`,
      `big-*: one document, remote embedder at ${latencyMs} ms per request`,
    ]);
    return EXIT.ok;
  } finally {
    await queue.close();
    await runtime.close();
    await sql.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One run into a fresh workspace: the elapsed time and chunks stored. */
async function measure(
  runtime: RagRuntime,
  mode: string,
  workers: number,
  corpus: string,
  run: (workspaceId: string) => Promise<void>,
): Promise<Row> {
  const workspaceId = `bench-${mode}-${workers}`;
  await runtime.sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspaceId]);
  await runtime.sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [workspaceId]);
  const started = performance.now();
  await run(workspaceId);
  const seconds = (performance.now() - started) / 1000;
  const stats = await runtime.store.stats(workspaceId);
  return {
    mode,
    workers,
    documents: stats.documents,
    chunks: stats.chunks,
    seconds,
    chunksPerSecond: stats.chunks / seconds,
    overheadMsPerJob: null,
  };
}

async function startWorker(
  databaseUrl: string,
  redisUrl: string,
  queueName: string,
  settings: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', TSX, WORKER], {
    env: childEnvironment({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      AGENTIC_RAG_QUEUE_NAME: queueName,
      // Several workers run at once: each takes a free metrics port.
      AGENTIC_RAG_WORKER_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      ...settings,
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output: string | null = '';
    // Read stdout to the end: a full pipe would block the worker's logging and so its jobs.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (output === null) return;
      output += chunk.toString();
      if (output.includes('"event":"worker-ready"')) {
        output = null;
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return child;
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

runCli(main);
