import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Logger } from '../telemetry/index.js';
import { inScope, type Caller } from './caller.js';
import { integer, parseInput } from './inputs.js';
import type { OperationHost } from './operation-host.js';

/**
 * The golden runs `pnpm rag:eval` left in AGENTIC_RAG_EVAL_RESULTS_DIR, for the admin `evalRuns`
 * query and the console's Eval runs page. The reports are read as plain JSON with a schema of only
 * the fields shown here, on purpose not through eval/: the service must not depend on evaluation
 * code (test/architecture.test.ts), and a report written by an older or newer eval that still has
 * these fields keeps showing. A file that cannot be read or does not match is skipped and counted
 * in a warning, never an error: one bad file must not hide the others.
 */

const Rate = z.number().min(0).max(1);
const Count = z.int().min(0);
const Milliseconds = z.number().min(0);
const Distribution = z.object({ p50: Milliseconds, p95: Milliseconds });

const GoldenReportFile = z.object({
  kind: z.literal('golden'),
  dataset: z.string(),
  answerer: z.string(),
  workspaceId: z.string(),
  k: Count,
  startedAt: z.iso.datetime(),
  seconds: z.number().min(0),
  summary: z.object({
    questions: Count,
    answerable: Count,
    hitRate: Rate,
    mrr: Rate,
    answerRecall: Rate,
    citationCoverage: Rate,
    citationPrecision: Rate,
    refusal: z.object({
      refusedWhenRequired: Count,
      required: Count,
      falseRefusals: Count,
      accuracy: Rate,
    }),
    // Older reports have no endpoint precision set.
    endpointPrecision: z.object({ precisionAt1: Rate }).nullish(),
    latency: z.object({ totalMs: Distribution, stages: z.record(z.string(), Distribution).default({}) }),
  }),
  categories: z
    .array(
      z.object({
        category: z.string(),
        questions: Count,
        // Null for a category with no answerable question (out-of-corpus).
        hitRate: Rate.nullable(),
        mrr: Rate.nullable(),
        answerRecall: Rate.nullable(),
        refusalAccuracy: Rate,
      }),
    )
    .default([]),
});

export interface EvalCategory {
  category: string;
  questions: number;
  hitRate: number | null;
  mrr: number | null;
  answerRecall: number | null;
  refusalAccuracy: number;
}

export interface EvalRun {
  /** The report's file name without `.json`: `golden-2026-11-24T19-42-51-188Z`. */
  id: string;
  startedAt: string;
  dataset: string;
  workspaceId: string;
  answerer: string;
  k: number;
  seconds: number;
  questions: number;
  answerable: number;
  hitRate: number;
  mrr: number;
  answerRecall: number;
  citationCoverage: number;
  citationPrecision: number;
  refusalAccuracy: number;
  refusedWhenRequired: number;
  refusalRequired: number;
  falseRefusals: number;
  endpointPrecisionAt1: number | null;
  latencyP50Ms: number;
  latencyP95Ms: number;
  stages: Array<{ stage: string; p50Ms: number; p95Ms: number }>;
  categories: EvalCategory[];
}

const REPORT_FILE = /^golden-[A-Za-z0-9._-]+\.json$/;
const RUN_ID = z.string({ error: 'id must be a string' }).regex(/^golden-[A-Za-z0-9._-]{1,190}$/, {
  error: 'id must be a run id such as golden-2026-11-24T19-42-51-188Z',
});
/** A golden report is a few hundred KB; anything far bigger is not one, and is not read. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

export const EvalRunsInput = z.object({ limit: integer('limit', 1, 200).nullish() });
export const EvalRunInput = z.object({ id: RUN_ID });

export async function evalRuns(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof EvalRunsInput> = {},
) {
  return service.guardDeployment(caller, 'evalRuns', async () => {
    const limit = parseInput(EvalRunsInput, input).limit ?? 20;
    const directory = resultsDirectory(service);
    // The file name carries the start time, so newest names first reads the fewest files.
    const names = (await reportNames(directory)).sort().reverse();
    const runs: EvalRun[] = [];
    const skipped: string[] = [];
    for (const name of names) {
      if (runs.length >= limit) break;
      const run = await readRun(directory, name);
      if (run === null) skipped.push(name);
      else if (inScope(caller, run.workspaceId)) runs.push(run);
    }
    warnSkipped(service.runtime.logger, directory, skipped);
    return runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  });
}

export async function evalRun(service: OperationHost, caller: Caller, input: z.input<typeof EvalRunInput>) {
  return service.guardDeployment(caller, 'evalRun', async () => {
    const { id } = parseInput(EvalRunInput, { id: input.id });
    const directory = resultsDirectory(service);
    const name = `${id}.json`;
    if (!(await reportNames(directory)).includes(name)) return null;
    const run = await readRun(directory, name);
    if (run === null) warnSkipped(service.runtime.logger, directory, [name]);
    // A run of a workspace outside a scoped admin's key reads as one that does not exist.
    return run !== null && inScope(caller, run.workspaceId) ? run : null;
  });
}

const resultsDirectory = (service: OperationHost) =>
  path.resolve(service.runtime.config.AGENTIC_RAG_EVAL_RESULTS_DIR);

/** The report files in the directory; none when it does not exist (no run yet). */
async function reportNames(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && REPORT_FILE.test(entry.name))
      .map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new RagError(ErrorCode.FILE_UNREADABLE, `the eval results directory cannot be read (${code})`, {
      cause: error,
    });
  }
}

/** One report as a run, or null when it cannot be read or is not a golden report. */
async function readRun(directory: string, name: string): Promise<EvalRun | null> {
  const file = path.join(directory, name);
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return null;
    const parsed = GoldenReportFile.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? toRun(name.replace(/\.json$/, ''), parsed.data) : null;
  } catch {
    // Unreadable (gone since the listing, permissions) or not JSON: skipped like a mismatch.
    return null;
  }
}

function toRun(id: string, report: z.output<typeof GoldenReportFile>): EvalRun {
  const { summary } = report;
  return {
    id,
    startedAt: report.startedAt,
    dataset: report.dataset,
    workspaceId: report.workspaceId,
    answerer: report.answerer,
    k: report.k,
    seconds: report.seconds,
    questions: summary.questions,
    answerable: summary.answerable,
    hitRate: summary.hitRate,
    mrr: summary.mrr,
    answerRecall: summary.answerRecall,
    citationCoverage: summary.citationCoverage,
    citationPrecision: summary.citationPrecision,
    refusalAccuracy: summary.refusal.accuracy,
    refusedWhenRequired: summary.refusal.refusedWhenRequired,
    refusalRequired: summary.refusal.required,
    falseRefusals: summary.refusal.falseRefusals,
    endpointPrecisionAt1: summary.endpointPrecision?.precisionAt1 ?? null,
    latencyP50Ms: summary.latency.totalMs.p50,
    latencyP95Ms: summary.latency.totalMs.p95,
    stages: Object.entries(summary.latency.stages).map(([stage, distribution]) => ({
      stage,
      p50Ms: distribution.p50,
      p95Ms: distribution.p95,
    })),
    categories: report.categories,
  };
}

function warnSkipped(logger: Logger, directory: string, skipped: string[]): void {
  if (skipped.length === 0) return;
  logger.warn('eval reports skipped: unreadable or not a golden report', {
    event: 'eval-runs-skipped',
    directory,
    skipped: skipped.length,
    files: skipped.slice(0, 20),
  });
}
