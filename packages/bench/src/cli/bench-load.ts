import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchArguments,
  formatTable,
  parseBackends,
  recreateScratchDatabase,
  report,
  requireBenchServer,
  verdict,
} from '../bench/index.js';
import { seededRandom } from '@agentic-rag/core/testing';
import { percentile } from '../eval/index.js';
import { childEnvironment, cliConfig, EXIT, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:load [options]

The API under load while it ingests: for each backend, a real \`pnpm start\` process (its own
empty data, the sample corpus ingested on start, answer cache off, ingestion inline in the API
process, the heaviest case) is sent one ingestDocuments of --documents small documents and,
at the same time, --answers ragAnswer requests, --concurrency at a time, while /healthz is
polled every 20 ms until the ingest returns. Printed per backend: errors, answer latency
p50/p95/p99, /healthz p50/p99 during the ingest, and the ingest's duration.
Targets: 0 errors; /healthz p99 <= 50 ms on both; PGlite answer p95 within 3x of Postgres.

Options:
  --backends LIST    pglite,postgres (default both; postgres needs BENCH_DATABASE_URL or DATABASE_URL)
  --documents N      documents in the ingest (default 1000, the most one call takes)
  --answers N        ragAnswer requests (default 200)
  --concurrency N    answers in flight at once (default 20)
  --json             print the results as JSON on stdout
  -h, --help         show this help

The Postgres run uses the scratch database "agentic_rag_bench_load", emptied first.`;

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const API_MAIN = path.join(REPO, 'apps/api/src/main.ts');
const GOLDEN = path.join(REPO, 'eval/agentic-rag/golden.jsonl');
const DATABASE = 'agentic_rag_bench_load';
const WORKSPACE = 'bench-load';

interface LoadResult {
  backend: 'pglite' | 'postgres';
  answers: number;
  errors: number;
  errorSamples: string[];
  answerP50: number;
  answerP95: number;
  answerP99: number;
  healthChecks: number;
  healthP50: number;
  healthP99: number;
  healthMax: number;
  ingestSeconds: number;
  ingestError: string | null;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    backends: { type: 'string', default: 'pglite,postgres' },
    documents: { type: 'string', default: '1000' },
    answers: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '20' },
  });
  if (!values) return EXIT.ok;
  const config = cliConfig();
  const backends = parseBackends(values.backends, config);
  const options = {
    documents: Number(values.documents),
    answers: Number(values.answers),
    concurrency: Number(values.concurrency),
  };
  const questions = (await readFile(GOLDEN, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { question: string }).question);
  const results: LoadResult[] = [];
  for (const backend of backends) {
    // The scratch database, dropped and created again: every run starts from the same state.
    const databaseUrl =
      backend === 'postgres'
        ? await recreateScratchDatabase(requireBenchServer(config, 'postgres'), DATABASE)
        : null;
    if (!values.json) console.error(`bench:load: ${backend}: starting the API…`);
    results.push(await runBackend(backend, databaseUrl, questions, options, !values.json));
  }
  report(values.json, results, () => humanReport(results));
  return EXIT.ok;
}

/** `pnpm start` on its own data, ready once it logged api-ready; stopped with SIGTERM. */
async function startApi(dataDir: string, databaseUrl: string | null) {
  // The API under test gets its own data and settings, never the caller's database or queue.
  const env = childEnvironment(
    {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      // The port and readiness are read from the JSON events on stdout.
      LOG_FORMAT: 'json',
      AGENTIC_RAG_CACHE: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      AGENTIC_RAG_CORPUS_DIR: path.join(REPO, 'simulated_ingestion'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    { without: /^(DATABASE_|REDIS_URL|REDIS_CLUSTER_NODES|CACHE_REDIS_URL|NEO4J_|AGENTIC_RAG_|RATE_LIMIT_)/ },
  );
  const child = spawn(process.execPath, ['--import', 'tsx', API_MAIN], { cwd: REPO, env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const listening = /"event":"api-listening"[^\n]*"port":(\d+)/.exec(output);
      if (listening && output.includes('"event":"api-ready"')) {
        clearInterval(timer);
        resolve(Number(listening[1]));
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`the API exited with ${child.exitCode}:\n${output.slice(-2000)}`));
      }
    }, 100);
  });
  const key = (await readFile(path.join(dataDir, 'admin.key'), 'utf8')).trim();
  return { child, port, key, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Small Markdown notes, each a different mix of words, so every one is a new document. */
function documents(count: number): Array<{ id: string; content: string }> {
  const next = seededRandom(7);
  const words = 'route depot pallet carrier invoice manifest customs freight ledger bay dock tariff'.split(
    ' ',
  );
  return Array.from({ length: count }, (_, index) => {
    const sentence = () =>
      Array.from({ length: 12 }, () => words[Math.floor(next() * words.length)]).join(' ');
    return {
      id: `load/note-${String(index).padStart(4, '0')}.md`,
      content: `# Note ${index}\n\n${sentence()}.\n\n## Detail\n\n${sentence()}. ${sentence()}.\n`,
    };
  });
}

async function graphql(port: number, key: string, query: string, variables: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: Array<{ message: string }> };
  if (!response.ok || body.errors) throw new Error(body.errors?.[0]?.message ?? `HTTP ${response.status}`);
  return body;
}

async function runBackend(
  backend: 'pglite' | 'postgres',
  databaseUrl: string | null,
  questions: string[],
  options: { documents: number; answers: number; concurrency: number },
  progress: boolean,
): Promise<LoadResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `bench-load-${backend}-`));
  const api = await startApi(dataDir, databaseUrl);
  try {
    const batch = documents(options.documents);
    let ingesting = true;
    const ingestStarted = performance.now();
    const ingest = graphql(
      api.port,
      api.key,
      'mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode } }',
      { input: { workspaceId: WORKSPACE, documents: batch } },
    ).then(
      () => null,
      (error: Error) => error.message,
    );
    void ingest.finally(() => (ingesting = false));

    const health: number[] = [];
    const polling = (async () => {
      while (ingesting) {
        const started = performance.now();
        const response = await fetch(`http://127.0.0.1:${api.port}/healthz`).catch(() => null);
        if (response) await response.arrayBuffer();
        if (ingesting) health.push(response?.ok ? performance.now() - started : Number.POSITIVE_INFINITY);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const latencies: number[] = [];
    const errors: string[] = [];
    let issued = 0;
    const client = async () => {
      while (issued < options.answers) {
        const question = questions[issued++ % questions.length]!;
        const started = performance.now();
        try {
          await graphql(
            api.port,
            api.key,
            'mutation($input: RagAnswerInput!) { ragAnswer(input: $input) { answer } }',
            { input: { workspaceId: 'demo', query: question } },
          );
          latencies.push(performance.now() - started);
        } catch (error) {
          errors.push((error as Error).message);
        }
        if (progress && (latencies.length + errors.length) % 50 === 0)
          console.error(
            `bench:load: ${backend}: ${latencies.length + errors.length}/${options.answers} answers`,
          );
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, client));
    const ingestError = await ingest;
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    await polling;
    if (progress)
      console.error(
        `bench:load: ${backend}: ingest of ${options.documents} documents took ${ingestSeconds.toFixed(1)} s`,
      );
    const finite = health.filter(Number.isFinite);
    return {
      backend,
      answers: latencies.length,
      errors: errors.length + (health.length - finite.length),
      errorSamples: [...new Set(errors)].slice(0, 3),
      answerP50: percentile(latencies, 0.5),
      answerP95: percentile(latencies, 0.95),
      answerP99: percentile(latencies, 0.99),
      healthChecks: health.length,
      healthP50: percentile(finite, 0.5),
      healthP99: percentile(finite, 0.99),
      healthMax: finite.length > 0 ? Math.max(...finite) : 0,
      ingestSeconds,
      ingestError,
    };
  } finally {
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The table, the errors seen, then the targets, PGlite measured against Postgres. */
function humanReport(results: LoadResult[]): string[] {
  const ms = (value: number) => value.toFixed(1);
  const lines = [
    formatTable(
      [
        { header: 'backend', value: (row: LoadResult) => row.backend },
        { header: 'answers', value: (row) => row.answers },
        { header: 'errors', value: (row) => row.errors },
        { header: 'answer p50', value: (row) => ms(row.answerP50), align: 'right' },
        { header: 'p95', value: (row) => ms(row.answerP95), align: 'right' },
        { header: 'p99', value: (row) => ms(row.answerP99), align: 'right' },
        { header: '/healthz n', value: (row) => row.healthChecks },
        { header: 'p50', value: (row) => ms(row.healthP50), align: 'right' },
        { header: 'p99', value: (row) => ms(row.healthP99), align: 'right' },
        { header: 'max', value: (row) => ms(row.healthMax), align: 'right' },
        { header: 'ingest s', value: (row) => row.ingestSeconds.toFixed(1), align: 'right' },
      ],
      results,
    ),
  ];
  for (const row of results) {
    lines.push(...row.errorSamples.map((sample) => `  ${row.backend} error: ${sample}`));
    if (row.ingestError) lines.push(`  ${row.backend} ingest failed: ${row.ingestError}`);
  }
  const pglite = results.find((row) => row.backend === 'pglite');
  const postgres = results.find((row) => row.backend === 'postgres');
  lines.push('', 'targets');
  for (const row of results) {
    lines.push(
      `  ${row.backend}: 0 errors ${verdict(row.errors === 0 && !row.ingestError)}; /healthz p99 <= 50 ms ${verdict(row.healthP99 <= 50)}`,
    );
  }
  if (pglite && postgres) {
    const ratio = pglite.answerP95 / postgres.answerP95;
    lines.push(`  PGlite answer p95 within 3x of Postgres: ${ratio.toFixed(2)}x ${verdict(ratio <= 3)}`);
  }
  return lines;
}

runCli(main);
