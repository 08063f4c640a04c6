import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  benchArguments,
  benchLog,
  formatTable,
  keyCheckPair,
  latency,
  latencyColumns,
  measureConcurrently,
  openScratchDatabase,
  report,
  requireBenchServer,
  target,
  verdict,
} from '../bench/index.js';
import { buildContext, ErrorCode, RagError, type RagService } from '@agentic-rag/core';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, EXIT, ProgressBar, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:answer [options]

ragAnswer latency on the real Postgres, offline (no model), over a question set:
  retrieve only   retrieval + context assembly alone: the baseline the other stages add to
  cold            ragAnswer with an empty answer cache (every question a miss)
  cached          the same questions again (every question a hit)
  cached, key     the same through the application service, each question authenticated with
                  an API key (verify + per-key rate limiter) as every transport does
  cached, no auth the same through the service with AGENTIC_RAG_AUTH=off: the difference to the
                  row above is what the key check costs (target <= 1 ms at p50)
  cold, key       a cold ragAnswer as an API client gets it: key, guard, row-level security
each with 1 and with 8 concurrent clients. Target: cold p50 <= 150 ms with 1 client.

Options:
  --questions FILE  JSON lines with a "question" (golden set), "query" or BEIR "text" field (default: the golden set
                    eval/agentic-rag/golden.jsonl when present, else the BEIR sample's queries)
  --clients LIST    concurrency levels (default 1,8)
  --json            print the results as JSON on stdout
  -h, --help        show this help

Runs in the scratch database "agentic_rag_bench_answer" on the server of BENCH_DATABASE_URL
(or DATABASE_URL), with the sample corpus ingested into workspace "bench-answer" (kept between
runs; unchanged files are skipped). The answer cache is Postgres unless CACHE_REDIS_URL or
REDIS_URL is set.`;

const DATABASE = 'agentic_rag_bench_answer';
const WORKSPACE = 'bench-answer';
const REPO = new URL('../../../../', import.meta.url);
const CORPUS = fileURLToPath(new URL('simulated_ingestion', REPO));
const GOLDEN = fileURLToPath(new URL('eval/agentic-rag/golden.jsonl', REPO));
const BEIR_QUERIES = fileURLToPath(new URL('eval/fixtures/beir-sample/queries.jsonl', REPO));

interface Row {
  mode: string;
  clients: number;
  questions: number;
  p50: number;
  p95: number;
  mean: number;
  perSecond: number;
  target: string;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    questions: { type: 'string' },
    clients: { type: 'string', default: '1,8' },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  const serverUrl = requireBenchServer(config, 'bench:answer');
  const clients = values.clients.split(',').map(Number);
  if (!clients.every((count) => Number.isInteger(count) && count >= 1 && count <= 64)) {
    throw new RagError(ErrorCode.INVALID_INPUT, '--clients must list integers from 1 to 64');
  }
  const questions = await loadQuestions(values.questions);
  const log = benchLog;

  const sql = await openScratchDatabase(serverUrl, DATABASE, 10);
  const runtime = await createRuntime({ config: { ...config, AGENTIC_RAG_CACHE: true }, sql });
  const rows: Row[] = [];
  // The cached path is the cheapest answer there is, so the key check's share shows most there.
  const { secured, open, authorization, close } = await keyCheckPair(runtime, {
    workspaceId: WORKSPACE,
    label: 'bench:answer',
  });
  try {
    const through =
      (service: RagService, authorization: string | undefined, expectCached = true) =>
      async (query: string) => {
        const caller = await service.authenticate(authorization);
        const result = await service.answer(caller, { query, workspaceId: WORKSPACE });
        expectCache(query, result.cached, expectCached);
      };
    const emptyCache = () =>
      sql.query('UPDATE rag_workspaces SET corpus_version = corpus_version + 1 WHERE id = $1', [WORKSPACE]);
    const bar = new ProgressBar({ label: '  ingest' });
    const summary = await runtime.pipeline.ingestSources({
      workspaceId: WORKSPACE,
      sources: [CORPUS],
      onProgress: (progress) => bar.update(progress.filesDone, progress.filesTotal, progress.currentFile),
    });
    bar.finish();
    log(
      `bench:answer: ${summary.documents.added + summary.documents.updated} documents written, ${summary.documents.unchanged} unchanged; ${questions.length} questions; cache ${runtime.cache?.backend}`,
    );
    await sql.query('VACUUM ANALYZE');
    // Warm-up: planner caches, JIT-free paths, the embedder's first call.
    for (const query of questions.slice(0, 5)) await retrieveOnly(runtime, query);

    for (const count of clients) {
      rows.push(
        await measure('retrieve only', count, questions, (query) => retrieveOnly(runtime, query), log),
      );
      // An empty cache for the cold run, whichever backend holds it: a new corpus version makes
      // every earlier entry unreachable, exactly as an ingest would.
      await emptyCache();
      rows.push(await measure('cold', count, questions, (query) => answer(runtime, query, false), log));
      rows.push(await measure('cached', count, questions, (query) => answer(runtime, query, true), log));
      rows.push(await measure('cached, key', count, questions, through(secured, authorization), log));
      rows.push(await measure('cached, no auth', count, questions, through(open, undefined), log));
      // What an API client gets: the key check, the guard and the row-level security on a miss.
      await emptyCache();
      rows.push(await measure('cold, key', count, questions, through(secured, authorization, false), log));
    }
  } finally {
    await close();
    await runtime.close();
    await sql.close();
  }
  for (const row of rows) {
    if (row.mode === 'cold' && row.clients === 1) row.target = target('p50', row.p50, 150);
  }

  report(values.json, { questions: questions.length, rows }, () => [
    '',
    formatTable(
      [
        { header: 'mode', value: (row: Row) => row.mode },
        { header: 'clients', value: (row) => row.clients },
        { header: 'questions', value: (row) => row.questions },
        ...latencyColumns<Row>(2),
        { header: 'per s', value: (row) => row.perSecond.toFixed(1), align: 'right' },
        { header: 'target', value: (row) => row.target },
      ],
      rows,
    ),
    ...clients.map((count) => {
      const find = (mode: string) => rows.find((row) => row.mode === mode && row.clients === count)!;
      const overhead = find('cached, key').p50 - find('cached, no auth').p50;
      return `key check overhead, ${count} client${count > 1 ? 's' : ''}: ${overhead.toFixed(2)} ms at p50 (target <= 1 ms: ${verdict(overhead <= 1)}); the service itself (no auth) adds ${(find('cached, no auth').p50 - find('cached').p50).toFixed(2)} ms to a cached answer`;
    }),
  ]);
  return EXIT.ok;
}

async function retrieveOnly(runtime: RagRuntime, query: string): Promise<void> {
  const result = await runtime.retriever.retrieve({
    workspaceId: WORKSPACE,
    query,
    k: runtime.config.AGENTIC_RAG_TOPK,
  });
  await buildContext(runtime.chunks, runtime.config, WORKSPACE, result);
}

async function answer(runtime: RagRuntime, query: string, expectCached: boolean): Promise<void> {
  const result = await runtime.orchestrator.answer({ query, workspaceId: WORKSPACE });
  expectCache(query, result.cached, expectCached);
}

/** A benchmark that silently measured the wrong path would be worse than none. */
function expectCache(query: string, cached: boolean, expected: boolean): void {
  if (cached !== expected)
    throw new RagError(ErrorCode.INTERNAL, `expected a cache ${expected ? 'hit' : 'miss'} for "${query}"`);
}

/** Every question once, spread over `clients` concurrent workers; latency per question. */
async function measure(
  mode: string,
  clients: number,
  questions: readonly string[],
  run: (query: string) => Promise<void>,
  log: (line: string) => void,
): Promise<Row> {
  const bar = new ProgressBar({ label: `  ${mode} x${clients}` });
  const { latencies, seconds } = await measureConcurrently({
    count: questions.length,
    clients,
    run: (index) => run(questions[index]!),
    onProgress: (done, total) => bar.update(done, total, ''),
  });
  bar.finish();
  const row: Row = {
    mode,
    clients,
    questions: questions.length,
    ...latency(latencies),
    perSecond: questions.length / seconds,
    target: '',
  };
  log(`bench:answer ${mode} x${clients}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms`);
  return row;
}

async function loadQuestions(file: string | undefined): Promise<string[]> {
  const candidates = file ? [file] : [GOLDEN, BEIR_QUERIES];
  for (const candidate of candidates) {
    const text = await readFile(candidate, 'utf8').catch(() => null);
    if (text === null) {
      if (file) throw new RagError(ErrorCode.NOT_FOUND, `cannot read ${file}`);
      continue;
    }
    const questions = text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const record = JSON.parse(line) as { question?: string; query?: string; text?: string };
        return record.question ?? record.query ?? record.text ?? '';
      })
      .filter(Boolean);
    if (questions.length === 0)
      throw new RagError(ErrorCode.INVALID_INPUT, `${candidate} holds no questions`);
    return questions;
  }
  throw new RagError(ErrorCode.NOT_FOUND, 'no question set found');
}

runCli(main);
