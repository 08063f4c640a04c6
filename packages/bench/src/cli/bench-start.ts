import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { benchArguments, benchLog, formatTable, report } from '../bench/index.js';
import { childEnvironment, EXIT, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:start [options]

Start-up time as a user sees it, on the quick start's defaults (embedded database under a fresh
DATA_DIR, the sample corpus ingested on start, no Redis): for the compiled path (pnpm start, pnpm mcp)
and the tsx path they replaced (pnpm start:tsx, pnpm exec node --import tsx apps/mcp/src/main.ts):

  first start   pnpm start on an empty DATA_DIR until it prints its ready line (migrations, admin key,
                the whole sample corpus ingested)
  restart       pnpm start again on that DATA_DIR, nothing changed (median of --restarts)
  mcp connect   pnpm mcp on stdio, from spawn to the answer to MCP initialize (median of --restarts)

Runs pnpm build first (incremental; its time is printed, not counted). Targets: first start <= 15 s,
restart <= 5 s, mcp connect <= 3 s. Run it on a quiet machine: the figures scale with load.

Options:
  --restarts N    restarts and MCP connects measured per path (default 3)
  --only PATH     compiled or tsx (default both)
  --json          print the results as JSON on stdout
  -h, --help      show this help`;

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const TARGETS = { firstStart: 15, restart: 5, mcpConnect: 3 } as const;
const TIMEOUT_MS = 180_000;

/** How each path starts the API and the MCP server. */
const PATHS = {
  compiled: { api: ['pnpm', 'start'], mcp: ['pnpm', 'mcp'] },
  tsx: {
    api: ['pnpm', 'start:tsx'],
    mcp: ['pnpm', 'exec', 'node', '--import', 'tsx', 'apps/mcp/src/main.ts'],
  },
} as const;
type PathName = keyof typeof PATHS;

interface Row {
  path: PathName;
  firstStartSeconds: number;
  restartSeconds: number;
  mcpConnectSeconds: number;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    restarts: { type: 'string', default: '3' },
    only: { type: 'string' },
  });
  if (!values) return EXIT.ok;
  const restarts = Number(values.restarts);
  if (!Number.isInteger(restarts) || restarts < 1)
    throw new RagError(ErrorCode.INVALID_INPUT, '--restarts must be a positive integer');
  if (values.only !== undefined && !(values.only in PATHS))
    throw new RagError(ErrorCode.INVALID_INPUT, '--only must be compiled or tsx');
  const paths = values.only ? [values.only as PathName] : (Object.keys(PATHS) as PathName[]);
  const log = benchLog;

  const build = await timed(() => run(['pnpm', 'build'], baseEnvironment()));
  log(`bench:start pnpm build (incremental): ${build.seconds.toFixed(1)} s`);

  const rows: Row[] = [];
  for (const name of paths) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rag-bench-start-'));
    try {
      const env = baseEnvironment({ DATA_DIR: dataDir, PORT: '0' });
      const firstStart = await startUntilReady(PATHS[name].api, env);
      log(`bench:start ${name} first start: ${firstStart.toFixed(2)} s`);
      const restartTimes: number[] = [];
      for (let index = 0; index < restarts; index++)
        restartTimes.push(await startUntilReady(PATHS[name].api, env));
      log(`bench:start ${name} restarts: ${restartTimes.map((seconds) => seconds.toFixed(2)).join(', ')} s`);
      const apiKey = (await readFile(path.join(dataDir, 'admin.key'), 'utf8')).trim();
      const connects: number[] = [];
      for (let index = 0; index < restarts; index++)
        connects.push(await mcpConnect(PATHS[name].mcp, { ...env, AGENTIC_RAG_API_KEY: apiKey }));
      log(`bench:start ${name} mcp connects: ${connects.map((seconds) => seconds.toFixed(2)).join(', ')} s`);
      rows.push({
        path: name,
        firstStartSeconds: round(firstStart),
        restartSeconds: round(median(restartTimes)),
        mcpConnectSeconds: round(median(connects)),
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  // The targets are the table's last row: each path's figures read against them.
  const table: Array<Record<'path' | 'firstStart' | 'restart' | 'mcpConnect', string>> = [
    ...rows.map((row) => ({
      path: row.path,
      firstStart: seconds(row.firstStartSeconds),
      restart: seconds(row.restartSeconds),
      mcpConnect: seconds(row.mcpConnectSeconds),
    })),
    {
      path: 'target',
      firstStart: `<= ${TARGETS.firstStart} s`,
      restart: `<= ${TARGETS.restart} s`,
      mcpConnect: `<= ${TARGETS.mcpConnect} s`,
    },
  ];
  report(
    values.json,
    { cpus: os.cpus().length, loadAverage: os.loadavg()[0], targets: TARGETS, rows },
    () => [
      `\nStart-up, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}\n`,
      formatTable(
        [
          { header: 'path', value: (row: (typeof table)[number]) => row.path },
          { header: 'first start', value: (row) => row.firstStart, align: 'right' },
          { header: 'restart', value: (row) => row.restart, align: 'right' },
          { header: 'mcp connect', value: (row) => row.mcpConnect, align: 'right' },
        ],
        table,
      ),
    ],
  );
  return EXIT.ok;
}

/**
 * The quick start's defaults: our environment without the settings that would point the service
 * at a server database, a queue, a graph store, a model or a trace collector.
 */
function baseEnvironment(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childEnvironment(overrides, {
    without:
      /^(DATABASE_URL|DATABASE_REPLICA_URLS|REDIS_|NEO4J_|OTEL_|RAG_|AGENTIC_RAG_|LOG_FORMAT$|LOG_FILE$|HOST$|PORT$|DATA_DIR$)/,
  });
}

/** Seconds from spawning `command` to the ready line a person sees; then stops it and waits for it to exit. */
async function startUntilReady(command: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawnGroup(command, env);
  try {
    await waitForOutput(child, child.stdout!, 'agentic-rag ready: ');
    return (performance.now() - started) / 1000;
  } finally {
    await stopGroup(child);
  }
}

/** Seconds from spawning an MCP server on stdio to its answer to `initialize`. */
async function mcpConnect(command: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawnGroup(command, env);
  try {
    child.stdin!.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'bench-start', version: '1.0.0' },
        },
      })}\n`,
    );
    await waitForOutput(child, child.stdout!, '"id":1');
    return (performance.now() - started) / 1000;
  } finally {
    child.stdin!.end();
    await stopGroup(child);
  }
}

/** Its own process group, so stopping reaches the node process under pnpm and its shell. */
function spawnGroup(command: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [file, ...args] = command;
  return spawn(file!, args, { cwd: REPO, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
}

function waitForOutput(child: ChildProcess, stream: NodeJS.ReadableStream, marker: string): Promise<void> {
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${marker} within ${TIMEOUT_MS / 1000} s`)),
      TIMEOUT_MS,
    );
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`${child.spawnargs.join(' ')} exited (${code}) before ${marker}:\n${output.slice(-2000)}`),
      );
    });
  });
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 30_000);
  await exited;
  clearTimeout(timer);
  // The group's last process (node under pnpm) may outlive pnpm by the time it takes to close the database.
  for (let waited = 0; waited < 30_000 && groupAlive(child.pid!); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function run(command: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [file, ...args] = command;
  const child = spawn(file!, args, { cwd: REPO, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command.join(' ')} failed (exit ${code})`)),
    );
  });
}

async function timed(action: () => Promise<void>): Promise<{ seconds: number }> {
  const started = performance.now();
  await action();
  return { seconds: (performance.now() - started) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const round = (value: number) => Number(value.toFixed(2));
const seconds = (value: number) => `${value.toFixed(2)} s`;

runCli(main);
