import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  IngestQueue,
  JobStore,
  loadConfig,
  PostgresSql,
  type Sql,
} from '../packages/agentic-rag/src/index.js';
import { uniqueWorkspace } from './backends.js';

/**
 * What the fault suites (packages/agentic-rag/src/queue/{faults,truth}.int.test.ts) share: real
 * `pnpm worker` processes, a local embedding server, private redis-servers and a TCP proxy that
 * can cut Postgres off.
 */

const REPO = fileURLToPath(new URL('../', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');
/** How long the embeddings server sits on a request whose texts contain SLOW. */
export const SLOW_MS = 4000;
/** How long it sits on a request whose texts contain PAUSE: a run a test can stop half-way. */
export const PAUSE_MS = 250;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await sleep(50);
  }
}

export async function sparePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** 768 values in [-1, 1) from the text's hash; multiples of 1/128, so float4 storage is exact. */
export function vectorFor(text: string): number[] {
  const bytes = Buffer.concat(
    Array.from({ length: 24 }, (_, block) => createHash('sha256').update(`${block}\u0000${text}`).digest()),
  );
  return [...bytes].map((byte) => (byte - 128) / 128);
}

export interface EmbeddingCall {
  model: string;
  inputs: string[];
  answered: boolean;
}

export type EmbeddingServer = Awaited<ReturnType<typeof startEmbeddingServer>>;

/**
 * An OpenAI-style /v1/embeddings server: SLOW texts wait SLOW_MS, PAUSE texts PAUSE_MS, POISON
 * texts get a 500.
 */
export async function startEmbeddingServer() {
  const calls: EmbeddingCall[] = [];
  const server = createHttpServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      const call: EmbeddingCall = { model: body.model, inputs: body.input, answered: false };
      calls.push(call);
      const poisoned = body.input.some((text) => text.includes('POISON'));
      const data = body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: vectorFor(text),
      }));
      const usage = { prompt_tokens: body.input.length, total_tokens: body.input.length };
      const reply = () => {
        call.answered = true;
        if (response.destroyed) return;
        response.writeHead(poisoned ? 500 : 200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(
            poisoned ? { error: { message: 'poisoned input' } } : { object: 'list', data, usage },
          ),
        );
      };
      const has = (marker: string) => body.input.some((text) => text.includes(marker));
      const delay = poisoned ? 0 : has('SLOW') ? SLOW_MS : has('PAUSE') ? PAUSE_MS : 0;
      if (delay > 0) setTimeout(reply, delay);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: (model: string) => calls.filter((call) => call.model === model),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const isSlow = (call: EmbeddingCall) => call.inputs.some((text) => text.includes('SLOW'));

export type ServiceProcess = ReturnType<typeof startService>;

/**
 * One of our processes (`apps/<app>/src/main.ts`) started for real, with none of this process's
 * database, queue or model settings: only `env`. Not waited for: callers wait for the log event
 * that means ready to them (or kill it before, as the crash loop does).
 */
export function startService(app: 'api' | 'worker', env: Record<string, string>, cwd: string) {
  const clean = { ...process.env };
  for (const key of Object.keys(clean))
    if (
      /^(DATABASE_|REDIS_URL|REDIS_CLUSTER_NODES|CACHE_REDIS_URL|NEO4J_|RAG_|AGENTIC_RAG_|RATE_LIMIT_|CHUNK_|LOG_LEVEL)/.test(
        key,
      )
    )
      delete clean[key];
  const main = path.join(REPO, `apps/${app}/src/main.ts`);
  // LOG_FORMAT=json: callers read the JSON events on stdout.
  const child = spawn(process.execPath, ['--import', TSX_LOADER, main], {
    cwd,
    env: { ...clean, LOG_FORMAT: 'json', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    exited,
    output: () => output,
    events: (name: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.event === name),
    /** Output that is not a JSON log line: stack traces printed behind the logger's back. */
    stray: () => output.split('\n').filter((line) => line && !line.startsWith('{')),
    signal: (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export type WorkerProcess = Awaited<ReturnType<typeof spawnWorker>>;

/** `pnpm worker` as a real process; resolves once it logged worker-ready. */
export async function spawnWorker(env: Record<string, string>, cwd: string) {
  // Port 0: a worker's metrics listener must not collide with another worker's on this host.
  const worker = startService('worker', { AGENTIC_RAG_WORKER_METRICS_PORT: '0', ...env }, cwd);
  await until(
    () => {
      if (worker.child.exitCode !== null)
        throw new Error(`worker exited with ${worker.child.exitCode}:\n${worker.output()}`);
      return worker.events('worker-ready').length > 0;
    },
    30_000,
    () => `worker-ready:\n${worker.output()}`,
  );
  return worker;
}

export type ApiProcess = Awaited<ReturnType<typeof spawnApi>>;

/**
 * `apps/api/src/main.ts` as a real process on a spare port (PORT=0), loopback only; resolves with
 * its GraphQL endpoint once it logged api-listening.
 */
export async function spawnApi(env: Record<string, string>, cwd: string) {
  const api = startService(
    'api',
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: path.join(cwd, 'data'), ...env },
    cwd,
  );
  const { child, output, kill } = api;
  let port = 0;
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${output()}`);
      port = Number(/"event":"api-listening","port":(\d+)/.exec(output())?.[1] ?? 0);
      return port > 0;
    },
    60_000,
    () => `api-listening:\n${output()}`,
  );
  const url = `http://127.0.0.1:${port}/graphql`;
  return {
    child,
    url,
    output,
    /** One GraphQL request; throws on errors, so a test reads `data` alone. */
    graphql: async <Data = Record<string, unknown>>(
      query: string,
      variables: Record<string, unknown> = {},
    ) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: Data; errors?: unknown[] };
      if (body.errors?.length) throw new Error(`GraphQL errors from ${url}: ${JSON.stringify(body.errors)}`);
      return body.data!;
    },
    kill,
  };
}

export type RedisProcess = Awaited<ReturnType<typeof startRedis>>;

/**
 * A private redis-server on `port`. By default it keeps its data across a restart (AOF) in `dir`;
 * with `persist: false` a restart starts empty, as a Redis without persistence does.
 */
export async function startRedis(port: number, dir: string, options: { persist?: boolean } = {}) {
  const appendonly = options.persist === false ? 'no' : 'yes';
  const args = ['--port', String(port), '--save', '', '--appendonly', appendonly, '--dir', dir];
  const child = spawn('redis-server', args);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await until(
    () => output.includes('Ready to accept connections'),
    10_000,
    () => `redis:\n${output}`,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export type RedisCluster = Awaited<ReturnType<typeof startRedisCluster>>;

/**
 * A real Redis Cluster of `masters` redis-servers on spare ports in `dir` (no replicas, no
 * persistence), its slots assigned by `redis-cli --cluster create`; resolves once every node
 * reports cluster_state:ok.
 */
export async function startRedisCluster(dir: string, masters = 3) {
  const ports: number[] = [];
  while (ports.length < masters) {
    const port = await sparePort();
    // The cluster bus listens on port + 10000: both must be free.
    if (port + 10_000 <= 65_535 && !ports.includes(port)) ports.push(port);
  }
  const servers = ports.map((port) => {
    const args = [
      ...['--port', String(port), '--cluster-enabled', 'yes'],
      ...['--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
      ...['--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    ];
    const child = spawn('redis-server', args);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { port, child, exited, output: () => output };
  });
  const stop = async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
  };
  try {
    for (const server of servers)
      await until(
        () => server.output().includes('Ready to accept connections'),
        10_000,
        () => `redis ${server.port}:\n${server.output()}`,
      );
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const create = await redisCli([
      '--cluster',
      'create',
      ...nodes,
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    if (create.code !== 0) throw new Error(`redis-cli --cluster create failed:\n${create.output}`);
    for (const port of ports) {
      let info = '';
      await until(
        async () => {
          info = (await redisCli(['-p', String(port), 'cluster', 'info'])).output;
          return info.includes('cluster_state:ok');
        },
        20_000,
        () => `cluster_state:ok on ${port}:\n${info}`,
      );
    }
    return {
      nodes,
      /** How many keys matching `pattern` each node holds ("127.0.0.1:port" → count). */
      keysByNode: async (pattern: string) => {
        const counts: Record<string, number> = {};
        for (const port of ports) {
          const reply = await redisCli(['-p', String(port), '--scan', '--pattern', pattern]);
          counts[`127.0.0.1:${port}`] = reply.output.split('\n').filter(Boolean).length;
        }
        return counts;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One redis-cli run: its exit code and everything it printed. */
export async function redisCli(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn('redis-cli', [...args]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** A TCP proxy in front of Postgres that can be cut (refuses and drops connections) and restored. */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(target.port, target.host);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    sockets.add(client).add(upstream);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const cut = async () => {
    if (!server.listening) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, cut, restore: () => listen(port), close: cut };
}

export interface FixtureOptions {
  attempts?: number;
  redisUrl?: string;
  /** The queue on this Redis Cluster ("host:port" seeds) instead: no REDIS_URL at all. */
  clusterNodes?: readonly string[];
  databaseUrl?: string;
  /** Extra worker settings (AGENTIC_RAG_RECONCILE_MS, ...). */
  env?: Record<string, string>;
}

export type Fixture = Awaited<ReturnType<ReturnType<typeof faultFixtures>>>;

/**
 * A fault suite's shared state, with the hooks that make and remove it: one Postgres pool and one
 * embedding server for the file, and the per-test cleanups run after each test (last to first,
 * each whatever the others did). Call it at the top of a `describe`.
 */
export function useFaultSuite(options: { databaseUrl: string; redisUrl: string }) {
  let sql: PostgresSql | undefined;
  let embeddings: EmbeddingServer | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    sql = new PostgresSql({ connectionString: options.databaseUrl, maxConnections: 4 });
    embeddings = await startEmbeddingServer();
  });
  afterEach(async () => {
    const errors: unknown[] = [];
    while (cleanups.length > 0) await cleanups.pop()!().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  });
  afterAll(async () => {
    await embeddings?.close();
    await sql?.close();
  });
  const suite = { sql: () => sql!, embeddings: () => embeddings!, cleanups, ...options };
  return { ...suite, fixture: faultFixtures(suite) };
}

/**
 * The per-test fixture: one queue, workspace, embedding model and corpus folder, all removed
 * afterwards by the `cleanups` the suite runs (last to first) after each test.
 */
export function faultFixtures(suite: {
  sql: () => Sql;
  embeddings: () => EmbeddingServer;
  cleanups: Array<() => Promise<void>>;
  databaseUrl: string;
  redisUrl: string;
}) {
  return async (options: FixtureOptions = {}) => {
    const { cleanups } = suite;
    const sql = suite.sql();
    const suffix = randomUUID().slice(0, 8);
    const workspace = uniqueWorkspace('faults');
    const inlineWorkspace = `${workspace}-inline`;
    // A model name of its own: the embedding cache never answers for another test's texts.
    const model = `faults-${suffix}`;
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-faults-'));
    const corpus = path.join(root, 'corpus');
    await mkdir(corpus);
    const redisUrl = options.clusterNodes ? undefined : (options.redisUrl ?? suite.redisUrl);
    const env: Record<string, string> = {
      DATABASE_URL: options.databaseUrl ?? suite.databaseUrl,
      DATABASE_POOL_MAX: '4',
      ...(options.clusterNodes
        ? { REDIS_CLUSTER_NODES: options.clusterNodes.join(',') }
        : { REDIS_URL: redisUrl! }),
      AGENTIC_RAG_QUEUE_NAME: `faults-${suffix}`,
      AGENTIC_RAG_JOB_ATTEMPTS: String(options.attempts ?? 3),
      AGENTIC_RAG_JOB_BACKOFF_MS: '200',
      AGENTIC_RAG_JOB_LOCK_MS: '2000',
      AGENTIC_RAG_WORKER_CONCURRENCY: '2',
      AGENTIC_RAG_CACHE: 'false',
      RAG_EMBEDDER: 'openai',
      RAG_EMBEDDER_BASE_URL: suite.embeddings().baseUrl,
      RAG_EMBEDDER_MODEL: model,
      // The queue's attempts are what is tested: one HTTP call per attempt.
      RAG_EMBEDDER_MAX_RETRIES: '0',
      RAG_EMBEDDING_DIMENSIONS: '768',
      LOG_LEVEL: 'info',
      ...options.env,
    };
    // Run last to first, each whatever the others did: workers, then the queues, then the rows.
    cleanups.push(async () => {
      const workspaces = [workspace, inlineWorkspace];
      await sql.query('DELETE FROM rag_workspaces WHERE id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_jobs WHERE workspace_id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_ingest_stages WHERE workspace_id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_document_intents WHERE workspace_id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_embedding_cache WHERE model = $1', [`openai-compatible:${model}`]);
      await rm(root, { recursive: true, force: true });
    });
    const queue = new IngestQueue(loadConfig(env), new JobStore(sql), redisUrl);
    cleanups.push(async () => {
      try {
        await queue.queue.obliterate({ force: true });
        await queue.deadLetters.obliterate({ force: true });
      } finally {
        await queue.close();
      }
    });
    const workers: WorkerProcess[] = [];
    cleanups.push(async () => {
      for (const worker of workers) await worker.kill();
    });
    return {
      workspace,
      inlineWorkspace,
      model,
      root,
      corpus,
      env,
      queue,
      write: (name: string, content: string) => writeFile(path.join(corpus, name), content),
      startWorker: async (extra: Record<string, string> = {}) => {
        const worker = await spawnWorker({ ...env, ...extra }, root);
        workers.push(worker);
        return worker;
      },
    };
  };
}

/** What a fault case intends a document (a stored source_path) to hold at the end. */
export interface Intended {
  sourcePath: string;
  /** Text its chunks must contain; null when the document must be absent. */
  text: string | null;
}

export interface TruthSummary {
  expected: number;
  stored: number;
  lost: number;
  duplicated: number;
  stale: number;
}

/**
 * The database's account of a fault case: `stored` documents hold what was intended, `lost` ones
 * do not (absent, or another version), `duplicated` ones have more than one row or repeat a chunk
 * id or index, and `stale` counts the superseded texts (deleted or older versions) still in
 * rag_chunks. Printed as one `[fault]` line.
 */
export async function truthSummary(
  sql: Sql,
  name: string,
  workspace: string,
  intended: readonly Intended[],
  superseded: readonly string[],
): Promise<TruthSummary> {
  const documents = await sql.query<{ source_path: string; rows: number; chunks: string[] }>(
    `SELECT d.source_path, count(DISTINCT d.id)::int AS rows,
            coalesce(array_agg(c.text ORDER BY c.chunk_index) FILTER (WHERE c.id IS NOT NULL), '{}') AS chunks
     FROM rag_documents d LEFT JOIN rag_chunks c ON c.document_id = d.id
     WHERE d.workspace_id = $1 GROUP BY d.source_path`,
    [workspace],
  );
  const repeated = await sql.query<{ n: number }>(
    `SELECT count(DISTINCT source_path)::int AS n FROM (
       SELECT d.source_path FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE c.workspace_id = $1 GROUP BY d.source_path
       HAVING count(*) <> count(DISTINCT c.chunk_id) OR count(*) <> count(DISTINCT c.chunk_index)
     ) AS repeats`,
    [workspace],
  );
  const bySource = new Map(documents.rows.map((row) => [row.source_path, row]));
  const present = intended.filter((document) => document.text !== null);
  const stored = present.filter((document) =>
    (bySource.get(document.sourcePath)?.chunks ?? []).some((text) => text.includes(document.text!)),
  ).length;
  const stale = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM unnest($2::text[]) AS old(text)
     WHERE EXISTS (SELECT 1 FROM rag_chunks c WHERE c.workspace_id = $1 AND strpos(c.text, old.text) > 0)`,
    [workspace, [...superseded]],
  );
  const summary: TruthSummary = {
    expected: present.length,
    stored,
    lost: present.length - stored,
    duplicated: documents.rows.filter((row) => row.rows > 1).length + (repeated.rows[0]?.n ?? 0),
    stale: stale.rows[0]!.n,
  };
  console.log(
    `[fault] ${name}: expected ${summary.expected}, stored ${summary.stored}, lost ${summary.lost}, duplicated ${summary.duplicated}, stale ${summary.stale}`,
  );
  return summary;
}
