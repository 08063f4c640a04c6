import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { PostgresSql } from '../db/index.js';
import { stableChunkId } from '../ingest/index.js';
import { createRuntime } from '../runtime/index.js';
import { JobStore } from '../store/index.js';
import { IngestQueue } from './ingest-queue.js';
import { sha256 } from './payloads.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
/** How long the embeddings server sits on a request whose texts contain SLOW. */
const SLOW_MS = 4000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await sleep(50);
  }
}

async function sparePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** 768 values in [-1, 1) from the text's hash; multiples of 1/128, so float4 storage is exact. */
function vectorFor(text: string): number[] {
  const bytes = Buffer.concat(
    Array.from({ length: 24 }, (_, block) => createHash('sha256').update(`${block}\u0000${text}`).digest()),
  );
  return [...bytes].map((byte) => (byte - 128) / 128);
}

interface EmbeddingCall {
  model: string;
  inputs: string[];
  answered: boolean;
}

/** An OpenAI-style /v1/embeddings server: SLOW texts wait SLOW_MS, POISON texts get a 500. */
async function startEmbeddingServer() {
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
      if (!poisoned && body.input.some((text) => text.includes('SLOW'))) setTimeout(reply, SLOW_MS);
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

const isSlow = (call: EmbeddingCall) => call.inputs.some((text) => text.includes('SLOW'));

type WorkerProcess = Awaited<ReturnType<typeof spawnWorker>>;
type ChunkRow = { source_path: string; chunk_id: string; chunk_index: number; text: string } & Record<
  'section_path' | 'start_offset' | 'end_offset' | 'embedding_array',
  unknown
>;

/** `pnpm worker` as a real process; resolves once it logged worker-ready. */
async function spawnWorker(env: Record<string, string>, cwd: string) {
  const clean = { ...process.env };
  for (const key of Object.keys(clean))
    if (/^(DATABASE_|REDIS_URL|CACHE_REDIS_URL|NEO4J_|RAG_|AGENTIC_RAG_|CHUNK_|LOG_LEVEL)/.test(key))
      delete clean[key];
  const main = path.join(REPO, 'apps/worker/src/main.ts');
  // Port 0: a worker's metrics listener must not collide with another worker's on this host.
  const child = spawn(process.execPath, ['--import', TSX_LOADER, main], {
    cwd,
    env: { ...clean, AGENTIC_RAG_WORKER_METRICS_PORT: '0', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const events = (name: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event === name);
  const worker = {
    child,
    exited,
    events,
    /** Output that is not a JSON log line: stack traces printed behind the logger's back. */
    stray: () => output.split('\n').filter((line) => line && !line.startsWith('{')),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  await until(
    () => {
      if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${output}`);
      return events('worker-ready').length > 0;
    },
    30_000,
    () => `worker-ready:\n${output}`,
  );
  return worker;
}

/** A private redis-server that keeps its data across a restart (AOF) in `dir`. */
async function startRedis(port: number, dir: string) {
  const args = ['--port', String(port), '--save', '', '--appendonly', 'yes', '--dir', dir];
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
    stop: async (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A TCP proxy in front of Postgres that can be cut (refuses and drops connections) and restored. */
async function startTcpProxy(target: { host: string; port: number }) {
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

describe.runIf(DATABASE_URL && REDIS_URL)('the ingest queue under faults (real worker processes)', () => {
  let sql: PostgresSql;
  let jobs: JobStore;
  let embeddings: Awaited<ReturnType<typeof startEmbeddingServer>>;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    sql = new PostgresSql({ connectionString: DATABASE_URL!, maxConnections: 4 });
    jobs = new JobStore(sql);
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

  /** One test's queue, workspace, embedding model and corpus folder, all removed afterwards. */
  async function fixture(options: { attempts?: number; redisUrl?: string; databaseUrl?: string } = {}) {
    const suffix = randomUUID().slice(0, 8);
    const workspace = uniqueWorkspace('faults');
    const inlineWorkspace = `${workspace}-inline`;
    // A model name of its own: the embedding cache never answers for another test's texts.
    const model = `faults-${suffix}`;
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-faults-'));
    const corpus = path.join(root, 'corpus');
    await mkdir(corpus);
    const redisUrl = options.redisUrl ?? REDIS_URL!;
    const env: Record<string, string> = {
      DATABASE_URL: options.databaseUrl ?? DATABASE_URL!,
      DATABASE_POOL_MAX: '4',
      REDIS_URL: redisUrl,
      AGENTIC_RAG_QUEUE_NAME: `faults-${suffix}`,
      AGENTIC_RAG_JOB_ATTEMPTS: String(options.attempts ?? 3),
      AGENTIC_RAG_JOB_BACKOFF_MS: '200',
      AGENTIC_RAG_JOB_LOCK_MS: '2000',
      AGENTIC_RAG_WORKER_CONCURRENCY: '2',
      AGENTIC_RAG_CACHE: 'false',
      RAG_EMBEDDER: 'openai',
      RAG_EMBEDDER_BASE_URL: embeddings.baseUrl,
      RAG_EMBEDDER_MODEL: model,
      // The queue's attempts are what is tested: one HTTP call per attempt.
      RAG_EMBEDDER_MAX_RETRIES: '0',
      RAG_EMBEDDING_DIMENSIONS: '768',
      LOG_LEVEL: 'info',
    };
    // Run last to first, each whatever the others did: workers, then the queues, then the rows.
    cleanups.push(async () => {
      const workspaces = [workspace, inlineWorkspace];
      await sql.query('DELETE FROM rag_workspaces WHERE id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_jobs WHERE workspace_id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_ingest_stages WHERE workspace_id = ANY($1::text[])', [workspaces]);
      await sql.query('DELETE FROM rag_embedding_cache WHERE model = $1', [`openai-compatible:${model}`]);
      await rm(root, { recursive: true, force: true });
    });
    const queue = new IngestQueue(loadConfig(env), jobs, redisUrl);
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
      corpus,
      env,
      queue,
      write: (name: string, content: string) => writeFile(path.join(corpus, name), content),
      startWorker: async () => {
        const worker = await spawnWorker(env, root);
        workers.push(worker);
        return worker;
      },
    };
  }

  async function documentCount(workspace: string): Promise<number> {
    const sqlText = 'SELECT count(*) AS n FROM rag_documents WHERE workspace_id = $1';
    return (await sql.query<{ n: number }>(sqlText, [workspace])).rows[0]!.n;
  }

  /** Everything a chunk is made of but its database ids, in document order. */
  async function chunksOf(workspace: string) {
    const result = await sql.query<ChunkRow>(
      `SELECT d.source_path, c.chunk_id, c.chunk_index, c.text, c.section_path, c.start_offset,
              c.end_offset, c.embedding_array
       FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE c.workspace_id = $1 ORDER BY d.source_path, c.chunk_index`,
      [workspace],
    );
    return result.rows;
  }

  const completedIds = (worker: WorkerProcess) =>
    worker.events('job-completed').map((entry) => entry.jobId as string);

  it('hands a SIGKILLed worker’s job to a second worker, which stores the document exactly once', async () => {
    const f = await fixture();
    const section = (title: string, sentence: string) =>
      `## ${title}\n\n${`${sentence} `.repeat(40).trim()}\n`;
    await f.write(
      'handbook.md',
      [
        '# Depot handbook\n',
        section('Opening hours', 'The depot opens at six and closes at ten every weekday.'),
        section('Cold chain', 'Refrigerated trailers use dock seven; SLOW unloading is expected.'),
        section('Returns', 'Returned parcels are scanned twice before they go back on a shelf.'),
        section('Carriers', 'A carrier is suspended after three failed pickups in one week.'),
      ].join('\n'),
    );
    const first = await f.startWorker();
    const { ids } = await f.queue.enqueueFolder(f.workspace, f.corpus);
    expect(ids).toHaveLength(1);
    const id = ids[0]!;

    await until(
      () => embeddings.calls(f.model).some((call) => isSlow(call) && !call.answered),
      20_000,
      () => 'the first worker to be embedding the SLOW text',
    );
    expect(await jobs.get(id)).toMatchObject({ status: 'active', attempts: 1 });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await documentCount(f.workspace)).toBe(0);

    const second = await f.startWorker();
    expect(await f.queue.waitFor([id], undefined, 40_000)).toEqual({ completed: 1, dead: 0 });
    expect(completedIds(first)).toEqual([]);
    expect(completedIds(second)).toEqual([id]);
    // The killed worker never stored its embeddings, so the second one asked again.
    expect(embeddings.calls(f.model).filter(isSlow)).toHaveLength(2);
    expect(await f.queue.queue.getJobState(id)).toBe('completed');

    const runtime = await createRuntime({ config: loadConfig(f.env), sql });
    try {
      const summary = await runtime.pipeline.ingestFile(f.inlineWorkspace, f.corpus, 'handbook.md');
      expect(summary.failures).toEqual([]);
    } finally {
      await runtime.close();
    }
    const queued = await chunksOf(f.workspace);
    const inline = await chunksOf(f.inlineWorkspace);
    expect(queued.length).toBeGreaterThanOrEqual(3);
    expect(await documentCount(f.workspace)).toBe(1);
    const content = ({ chunk_id: _id, ...rest }: (typeof queued)[number]) => rest;
    expect(queued.map(content)).toEqual(inline.map(content));
    expect(queued.map((chunk) => chunk.chunk_index)).toEqual(queued.map((_, index) => index));
    for (const [workspace, chunks] of [
      [f.workspace, queued],
      [f.inlineWorkspace, inline],
    ] as const) {
      expect(new Set(chunks.map((chunk) => chunk.chunk_id)).size).toBe(chunks.length);
      expect(chunks.map((chunk) => chunk.chunk_id)).toEqual(
        chunks.map((chunk) => stableChunkId(workspace, chunk.source_path, chunk.chunk_index, chunk.text)),
      );
    }
  }, 90_000);

  it('sends a poison document to the DLQ after its attempts, and a retry succeeds once it is fixed', async () => {
    const f = await fixture({ attempts: 3 });
    await f.write('dock.md', '# Dock\n\nDock 7 is for refrigerated trailers.\n');
    await f.write('rates.md', '# Rates\n\nRate shopping compares quotes from every active carrier.\n');
    await f.write('poison.md', '# Poison\n\nThis paragraph is POISON to the embedding server.\n');
    const worker = await f.startWorker();
    const { ids } = await f.queue.enqueueFolder(f.workspace, f.corpus);
    expect(ids).toHaveLength(3);
    expect(await f.queue.waitFor(ids, undefined, 30_000)).toEqual({ completed: 2, dead: 1 });

    const letters = await f.queue.listDeadLetters();
    expect(letters).toHaveLength(1);
    const poisonId = letters[0]!.id;
    expect(letters[0]).toMatchObject({
      attempts: 3,
      error: expect.stringContaining('embedding server answered 500 after 1 attempts'),
      payload: { workspaceId: f.workspace, source: { type: 'file', relativePath: 'poison.md' } },
    });
    expect(await jobs.get(poisonId)).toMatchObject({ status: 'dead', attempts: 3 });
    expect(completedIds(worker).sort()).toEqual(ids.filter((id) => id !== poisonId).sort());
    const failures = worker.events('job-failed').filter((entry) => entry.jobId === poisonId);
    expect(failures.map((entry) => [entry.attempt, entry.dead, entry.code])).toEqual([
      [1, false, 'EMBEDDER_UNAVAILABLE'],
      [2, false, 'EMBEDDER_UNAVAILABLE'],
      [3, true, 'EMBEDDER_UNAVAILABLE'],
    ]);
    // One HTTP call per queue attempt: the retries are the queue's, not the HTTP client's.
    const poisonCalls = () =>
      embeddings.calls(f.model).filter((call) => call.inputs.some((text) => text.includes('Poison')));
    expect(poisonCalls()).toHaveLength(3);
    expect(await documentCount(f.workspace)).toBe(2);

    await f.write('poison.md', '# Poison\n\nThis paragraph is harmless to the embedding server now.\n');
    expect(await f.queue.retryDeadLetters()).toEqual([poisonId]);
    expect(await f.queue.waitFor([poisonId], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    expect(await f.queue.listDeadLetters()).toEqual([]);
    expect(await jobs.get(poisonId)).toMatchObject({ status: 'completed', attempts: 1, error: null });
    expect(poisonCalls()).toHaveLength(4);
    expect(await documentCount(f.workspace)).toBe(3);
  });

  it('retries jobs through a Postgres outage and completes them all once it is back', async () => {
    const target = new URL(DATABASE_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(proxy.close);
    const proxied = new URL(DATABASE_URL!);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const f = await fixture({ attempts: 10, databaseUrl: proxied.toString() });
    for (const name of ['alpha', 'bravo', 'charlie'])
      await f.write(`${name}.md`, `# ${name}\n\nThe ${name} depot ships parcels every night.\n`);
    const worker = await f.startWorker();

    await proxy.cut();
    const { ids } = await f.queue.enqueueFolder(f.workspace, f.corpus);
    expect(ids).toHaveLength(3);
    await sleep(3000);
    expect(await documentCount(f.workspace)).toBe(0);
    for (const id of ids) expect(await jobs.get(id)).toMatchObject({ status: 'queued' });
    await proxy.restore();

    expect(await f.queue.waitFor(ids, undefined, 40_000)).toEqual({ completed: 3, dead: 0 });
    expect(completedIds(worker).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      // Each job failed at least once while Postgres was away, and the queue tried it again.
      expect((await jobs.get(id))!.attempts).toBeGreaterThan(1);
      expect((await f.queue.queue.getJob(id))!.attemptsMade).toBeGreaterThan(0);
      const failed = worker.events('job-failed').filter((entry) => entry.jobId === id);
      expect(failed.map((entry) => entry.code)).toContain('STORE_UNAVAILABLE');
    }
    expect(await documentCount(f.workspace)).toBe(3);
  });

  it('survives a Redis restart mid-run: the worker reconnects and every job completes', async () => {
    const port = await sparePort();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rag-faults-redis-'));
    let redis = await startRedis(port, dir);
    cleanups.push(async () => {
      await redis.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    const f = await fixture({ redisUrl: `redis://127.0.0.1:${port}` });
    // The producer's connection reconnects quietly: nothing is printed while Redis is away.
    const printed = vi.spyOn(console, 'error');
    cleanups.push(async () => printed.mockRestore());
    // Enqueued in name order: the two SLOW ones take both worker slots, the rest wait in Redis.
    for (const name of ['one', 'two'])
      await f.write(`1-slow-${name}.md`, `# slow ${name}\n\nThis SLOW document takes a while to embed.\n`);
    for (const name of ['one', 'two', 'three', 'four'])
      await f.write(`2-quick-${name}.md`, `# quick ${name}\n\nThis document embeds at once.\n`);
    const worker = await f.startWorker();
    const { ids } = await f.queue.enqueueFolder(f.workspace, f.corpus);
    expect(ids).toHaveLength(6);

    await until(
      () => embeddings.calls(f.model).some((call) => isSlow(call) && !call.answered),
      20_000,
      () => 'a SLOW document in the middle of its embedding',
    );
    const statuses = await Promise.all(ids.map(async (id) => (await jobs.get(id))!.status));
    expect(statuses.filter((status) => status === 'queued').length).toBeGreaterThan(0);
    await redis.stop('SIGTERM');
    await sleep(1000);
    redis = await startRedis(port, dir);

    expect(await f.queue.waitFor(ids, undefined, 60_000)).toEqual({ completed: 6, dead: 0 });
    const states = async () => new Set(await Promise.all(ids.map((id) => f.queue.queue.getJobState(id))));
    await until(
      async () => [...(await states())].join() === 'completed',
      30_000,
      () => 'Redis to agree',
    );
    expect(worker.child.exitCode).toBeNull();
    // The outage is reported as worker-error log lines, not as stack traces printed by BullMQ.
    expect(worker.events('worker-error')).not.toEqual([]);
    expect(worker.stray()).toEqual([]);
    expect(printed).not.toHaveBeenCalled();
    expect(new Set(completedIds(worker))).toEqual(new Set(ids));
    expect(await documentCount(f.workspace)).toBe(6);
  }, 90_000);

  it('runs one job for the same document enqueued 100 times at once', async () => {
    const f = await fixture();
    const worker = await f.startWorker();
    const content = '# Same\n\nThe same document, enqueued a hundred times at once.\n';
    const payload = {
      workspaceId: f.workspace,
      source: { type: 'inline' as const, id: 'notes/same.md', content },
      contentHash: sha256(content),
    };
    const ids = await Promise.all(Array.from({ length: 100 }, () => f.queue.enqueue(payload)));
    expect(new Set(ids).size).toBe(1);
    const id = ids[0]!;
    const everyState = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'] as const;
    const jobsInRedis = Object.values(await f.queue.queue.getJobCounts(...everyState));
    expect(jobsInRedis.reduce((total, count) => total + count, 0)).toBe(1);

    expect(await f.queue.waitFor([id], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    await until(
      async () => {
        const counts = await f.queue.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((count) => count === 0);
      },
      10_000,
      () => 'the queue to be idle',
    );
    expect(await f.queue.queue.getJobCounts('completed', 'failed')).toEqual({ completed: 1, failed: 0 });
    expect(completedIds(worker)).toEqual([id]);
    expect(embeddings.calls(f.model)).toHaveLength(1);
    expect(await documentCount(f.workspace)).toBe(1);
    const bookkept = 'SELECT id, status, attempts FROM rag_jobs WHERE workspace_id = $1';
    expect((await sql.query(bookkept, [f.workspace])).rows).toEqual([
      { id, status: 'completed', attempts: 1 },
    ]);
  });
});
