import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  type Config,
  createRateLimiter,
  ErrorCode,
  PgliteSql,
  RagError,
  RagService,
  type Sql,
} from '@agentic-rag/core';
import { mean, percentile } from '../eval/index.js';
import type { RagRuntime } from '@agentic-rag/core/runtime';
import { openScratchDatabase } from './scratch-database.js';

// What every `pnpm bench:*` main repeated: its options, where it runs, how it reports.

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
const COMMON = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
type Values<T extends OptionsConfig> = ReturnType<typeof parseArgs<{ options: T & typeof COMMON }>>['values'];

/**
 * The command line with `--json` and `-h/--help` added. With --help the usage goes to stdout and
 * the result is null: the main returns at once. Unknown options throw ERR_PARSE_ARGS_*, which
 * runCli reports as INVALID_INPUT.
 */
export function benchArguments<const T extends OptionsConfig>(help: string, options: T): Values<T> | null {
  const { values } = parseArgs({ options: { ...options, ...COMMON } });
  // parseArgs's result type cannot be worked out for a generic T, only for each caller's.
  if ((values as { help?: boolean }).help) {
    process.stdout.write(`${help}\n`);
    return null;
  }
  return values as Values<T>;
}

/** Progress and per-stage figures go to stderr: stdout holds only the results (table or --json). */
export function benchLog(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The Postgres server benchmarks make their scratch databases on, if any. */
export function benchServerUrl(config: Config): string | undefined {
  return config.BENCH_DATABASE_URL ?? config.DATABASE_URL;
}

/** The server, or INVALID_INPUT saying which variable `who` (a command or a backend) needs. */
export function requireBenchServer(config: Config, who: string): string {
  const url = benchServerUrl(config);
  if (!url) throw new RagError(ErrorCode.INVALID_INPUT, `${who} needs BENCH_DATABASE_URL or DATABASE_URL`);
  return url;
}

export type BenchBackend = 'pglite' | 'postgres';

/**
 * `--backends pglite,postgres`; without the option, both when a server is configured, else PGlite
 * alone. Each name is checked, and postgres against the configuration, before anything runs.
 */
export function parseBackends(value: string | undefined, config: Config): BenchBackend[] {
  const names = (value ?? (benchServerUrl(config) ? 'pglite,postgres' : 'pglite')).split(',');
  return names.map((name) => {
    if (name !== 'pglite' && name !== 'postgres')
      throw new RagError(ErrorCode.INVALID_INPUT, `unknown backend ${name} (pglite or postgres)`);
    if (name === 'postgres') requireBenchServer(config, 'postgres');
    return name;
  });
}

export interface BenchDatabase {
  sql: Sql;
  /** Closes the connection; a PGlite scratch directory is deleted, a Postgres scratch database kept. */
  dispose(): Promise<void>;
}

/**
 * A scratch database on `backend`: PGlite in a fresh temporary directory, or the database named
 * `database` (created when missing) on the benchmark server.
 */
export async function openBenchDatabase(
  backend: BenchBackend,
  options: { config: Config; database: string; poolMax?: number },
): Promise<BenchDatabase> {
  if (backend === 'postgres') {
    const url = requireBenchServer(options.config, 'postgres');
    const sql = await openScratchDatabase(url, options.database, options.poolMax);
    return { sql, dispose: () => sql.close() };
  }
  const directory = await mkdtemp(path.join(os.tmpdir(), `${options.database}-`));
  const sql = await PgliteSql.open({ dataDir: path.join(directory, 'pglite') });
  return {
    sql,
    dispose: async () => {
      await sql.close().catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export interface Latency {
  p50: number;
  p95: number;
  mean: number;
}

/** p50, p95 and mean of latencies in milliseconds. */
export function latency(samples: readonly number[]): Latency {
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), mean: mean(samples) };
}

export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

/** A target cell: `p95<=20 met`; `strict` for a `<` target. */
export function target(metric: string, value: number, limit: number, strict = false): string {
  return `${metric}${strict ? '<' : '<='}${limit} ${verdict(strict ? value < limit : value <= limit)}`;
}

export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number;
  /** Numbers are right-aligned, text left-aligned, unless said otherwise. */
  align?: 'left' | 'right';
}

/**
 * The latency columns of a results table (`p50 ms`, `p95 ms`, `mean ms`, or those of `figures`),
 * right-aligned at `digits` decimals: the same figures read the same in every bench:* table.
 */
export function latencyColumns<
  Row extends Pick<Latency, Figure>,
  Figure extends keyof Latency = keyof Latency,
>(digits: number, figures: readonly Figure[] = ['p50', 'p95', 'mean'] as Figure[]): Column<Row>[] {
  return figures.map((figure) => ({
    header: `${figure} ms`,
    value: (row: Row) => row[figure].toFixed(digits),
    align: 'right',
  }));
}

/** A plain-text table, each column as wide as its widest cell; trailing spaces trimmed. */
export function formatTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const right = columns.map((column, index) =>
    column.align ? column.align === 'right' : typeof cells[0]?.[index] === 'number',
  );
  const text = [columns.map((column) => column.header), ...cells.map((row) => row.map(String))];
  const widths = columns.map((_, index) => Math.max(...text.map((line) => line[index]!.length)));
  return text
    .map((line) =>
      line
        .map((cell, index) => (right[index] ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The results: one JSON document with --json, else what `human` prints (tables, target lines). */
export function report(json: boolean, data: unknown, human: () => string[]): void {
  process.stdout.write(`${json ? JSON.stringify(data) : human().join('\n')}\n`);
}

/** `clients` concurrent loops over `count` calls of `run(index)`; latency of each call in ms. */
export async function measureConcurrently(options: {
  count: number;
  clients: number;
  run: (index: number) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
}): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (next < options.count) {
        const index = next++;
        const begun = performance.now();
        await options.run(index);
        latencies.push(performance.now() - begun);
        options.onProgress?.(latencies.length, options.count);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

export interface KeyCheckPair {
  /** Auth on, with a generous per-key limiter so rate limiting never shows in a latency. */
  secured: RagService;
  /** The same runtime with AGENTIC_RAG_AUTH=off: the baseline the key check is measured against. */
  open: RagService;
  /** `Bearer <key>` of a reader key on `workspaceId`. */
  authorization: string;
  close(): Promise<void>;
}

/** Two services over one runtime that differ only in whether callers authenticate. */
export async function keyCheckPair(
  runtime: RagRuntime,
  options: { workspaceId: string; label: string },
): Promise<KeyCheckPair> {
  const secured = new RagService(runtime, {
    limiter: createRateLimiter({ perSecond: 100_000, burst: 100_000 }),
  });
  const open = new RagService(
    { ...runtime, config: { ...runtime.config, AGENTIC_RAG_AUTH: 'off' } },
    { limiter: null },
  );
  const { key } = await secured.keys.create({
    workspaceId: options.workspaceId,
    role: 'reader',
    label: options.label,
  });
  return { secured, open, authorization: `Bearer ${key}`, close: () => secured.close() };
}
