import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The image's processes without Docker: the runtime stage's tree is assembled here as the
// Dockerfile assembles it (production dependencies only, each package's dist/ without the sources,
// migrations/, deploy/), then deploy/docker-entrypoint.sh and deploy/healthcheck.mjs run in it
// against the real Postgres and Redis. A compiled file that imports a dev dependency, a migration
// the compiled code cannot find, or an entry point that starts the wrong file fails here.

const REPO = fileURLToPath(new URL('../', import.meta.url));
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl) console.log('skipping the entry point tests: TEST_DATABASE_URL is not set');

// The core's own drivers (the root has none), typed as far as this file uses them.
const requireFromCore = createRequire(path.join(REPO, 'packages/agentic-rag/package.json'));
const { Client } = requireFromCore('pg') as {
  Client: new (options: { connectionString: string }) => {
    connect(): Promise<void>;
    query(text: string): Promise<unknown>;
    end(): Promise<void>;
  };
};
const { Redis } = requireFromCore('ioredis') as {
  Redis: new (url: string) => {
    keys(pattern: string): Promise<string[]>;
    del(...keys: string[]): Promise<number>;
    disconnect(): void;
  };
};

const id = `deploy_${process.pid}_${Date.now().toString(36)}`;
const migrations = readdirSync(path.join(REPO, 'migrations')).filter((file) => file.endsWith('.sql'));
const children = new Set<ChildProcess>();
let app = '';
let database = '';

/** Runs `command` to completion; its exit code and output. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The runtime stage's /app: production dependencies, dist/, migrations and deploy/, no sources. */
function assembleRuntime(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agentic-rag-image-'));
  for (const file of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc'])
    cpSync(path.join(REPO, file), path.join(root, file));
  const packages = ['apps', 'packages'].flatMap((folder) =>
    readdirSync(path.join(REPO, folder)).map((name) => `${folder}/${name}`),
  );
  for (const pkg of packages) {
    try {
      mkdirSync(path.join(root, pkg), { recursive: true });
      cpSync(path.join(REPO, pkg, 'package.json'), path.join(root, pkg, 'package.json'));
    } catch {
      continue; // a folder that is not a package
    }
  }
  const install = run(
    'pnpm',
    ['install', '--frozen-lockfile', '--prod', '--ignore-scripts', '--prefer-offline', '--reporter=silent'],
    { cwd: root },
  );
  if (install.status !== 0)
    throw new Error(`pnpm install --prod failed:\n${install.stderr}${install.stdout}`);
  for (const pkg of packages) {
    // As the Dockerfile: only what is built (packages/bench runs from source and is not shipped).
    if (!existsSync(path.join(REPO, pkg, 'dist'))) continue;
    cpSync(path.join(REPO, pkg, 'dist'), path.join(root, pkg, 'dist'), {
      recursive: true,
      filter: (file) => !/\.d\.ts(\.map)?$|\.tsbuildinfo$/.test(file),
      force: true,
    });
  }
  cpSync(path.join(REPO, 'migrations'), path.join(root, 'migrations'), { recursive: true });
  for (const file of ['deploy/docker-entrypoint.sh', 'deploy/healthcheck.mjs'])
    cpSync(path.join(REPO, file), path.join(root, file));
  return root;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment a container of compose.yaml gets, against the test's database and Redis. */
function containerEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl!);
  url.pathname = `/${database}`;
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The image's ENV (Dockerfile), with loopback instead of every interface.
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    AGENTIC_RAG_INGEST_ON_START: 'false',
    DATABASE_URL: url.toString(),
    AGENTIC_RAG_QUEUE_NAME: id,
    LOG_LEVEL: 'warn',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...extra,
  };
}

function entrypoint(args: string[], env: NodeJS.ProcessEnv) {
  return run('sh', ['deploy/docker-entrypoint.sh', ...args], { cwd: app, env });
}

/** Starts a long-running role; its output is kept for the failure message. */
function start(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn('sh', ['deploy/docker-entrypoint.sh', ...args], { cwd: app, env });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function healthcheck(role: string, env: NodeJS.ProcessEnv) {
  return run('node', ['deploy/healthcheck.mjs', role], { cwd: app, env });
}

/** Polls the image's health check as Docker would, until it passes or the process dies. */
async function becomesHealthy(role: string, env: NodeJS.ProcessEnv, started: ReturnType<typeof start>) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (healthcheck(role, env).status === 0) return;
    if (started.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${role} never became healthy (exit ${started.child.exitCode}):\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

describe.runIf(databaseUrl)('the image entry point, run without Docker', () => {
  beforeAll(async () => {
    // The compiled output `pnpm start` would run: rebuilt here only when the sources changed.
    const built = run(
      'node',
      ['--input-type=module', '-e', "import { ensureBuilt } from './scripts/build.mjs'; ensureBuilt();"],
      { cwd: REPO },
    );
    if (built.status !== 0) throw new Error(`the build failed:\n${built.stderr}`);
    app = assembleRuntime();
    database = `rag_${id}`;
    const client = new Client({ connectionString: databaseUrl! });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${database}`);
    } finally {
      await client.end();
    }
  }, 600_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (database) {
      const client = new Client({ connectionString: databaseUrl! });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    }
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      try {
        const keys = await redis.keys(`*${id}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('migrate applies every migration to a fresh database once, and refuses arguments', () => {
    const env = containerEnvironment({});
    const first = entrypoint(['migrate'], env);
    expect([first.status, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toContain(`migrations: ${migrations.length} applied, 0 already applied`);
    const again = entrypoint(['migrate'], env);
    expect(again.stdout).toContain(`migrations: 0 applied, ${migrations.length} already applied`);

    const extra = entrypoint(['migrate', '--force'], env);
    expect([extra.status, extra.stderr]).toEqual([2, 'migrate takes no arguments, got: --force\n']);
  });

  it('api --migrate passes the health check; its admin key and a key made by `keys` open /readyz; SIGTERM stops it', async () => {
    const port = await freePort();
    const dataDir = path.join(app, 'data');
    const env = containerEnvironment({ PORT: String(port), DATA_DIR: dataDir });
    const api = start(['api', '--migrate'], env);
    await becomesHealthy('api', env, api);
    expect(api.output()).toContain(`migrations: 0 applied, ${migrations.length} already applied`);

    const readyz = (key: string) =>
      fetch(`http://127.0.0.1:${port}/readyz`, { headers: { authorization: `Bearer ${key}` } }).then(
        async (response) => [response.status, await response.json()] as const,
      );
    const adminKey = readFileSync(path.join(dataDir, 'admin.key'), 'utf8').trim();
    expect(await readyz(adminKey)).toEqual([
      200,
      expect.objectContaining({ status: 'ready', backend: 'postgres' }),
    ]);

    const created = entrypoint(['keys', 'create', '--workspace', 'team', '--role', 'reader', '--json'], env);
    expect(created.status).toBe(0);
    const { key, role, workspaceId } = JSON.parse(created.stdout) as Record<string, string>;
    expect({ role, workspaceId }).toEqual({ role: 'reader', workspaceId: 'team' });
    expect(await readyz(key!)).toEqual([200, expect.objectContaining({ backend: 'postgres' })]);
    // Only details are withheld from a key that is not one: readiness itself is open.
    expect(await readyz(`${key}x`)).toEqual([200, { status: 'ready' }]);

    expect(await stop(api.child)).toBe(0);
    const after = healthcheck('api', env);
    expect(after.status).toBe(1);
    expect(after.stderr).toContain(`GET /healthz on 127.0.0.1:${port} failed`);
  });

  it.runIf(redisUrl)('worker passes its health check on the metrics port and stops on SIGTERM', async () => {
    const port = await freePort();
    const env = containerEnvironment({ AGENTIC_RAG_WORKER_METRICS_PORT: String(port), LOG_LEVEL: 'info' });
    const worker = start(['worker'], env);
    await becomesHealthy('worker', env, worker);
    // The metrics listener (and so /healthz) comes up first; SIGTERM is handled once it is ready.
    await expect.poll(() => worker.output(), { timeout: 60_000 }).toContain('"event":"worker-ready"');
    // The image's default check asks the API's port, where nothing listens in a worker container.
    expect(healthcheck('api', { ...env, PORT: String(await freePort()) }).status).toBe(1);
    expect(await stop(worker.child)).toBe(0);
  });

  it('mcp --http passes its health check on AGENTIC_RAG_MCP_PORT and stops on SIGTERM', async () => {
    const port = await freePort();
    const env = containerEnvironment({ AGENTIC_RAG_MCP_PORT: String(port) });
    const mcp = start(['mcp', '--http'], env);
    await becomesHealthy('mcp', env, mcp);
    expect(await stop(mcp.child)).toBe(0);
  });

  it('runs any other command as it is, and the health check refuses an unknown role', () => {
    const other = entrypoint(['node', '-e', 'process.exit(7)'], containerEnvironment({}));
    expect(other.status).toBe(7);
    const unknown = healthcheck('queue', containerEnvironment({}));
    expect([unknown.status, unknown.stderr]).toEqual([
      2,
      'healthcheck: unknown process "queue": expected api, worker or mcp\n',
    ]);
  });
});
