import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createJsonLogger, loadConfig, RagService, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { writeEvalReports } from './eval-reports.test-support.js';
import { createApi } from './server.js';

// The list's scalars; a run's stages and categories are asked one run at a time (evalRun), as the
// console does: both lists in a list of runs go past the API's query cost limit.
const RUN_FIELDS = `id startedAt dataset workspaceId answerer k questions answerable hitRate mrr answerRecall
  citationCoverage citationPrecision refusalAccuracy refusedWhenRequired refusalRequired falseRefusals
  endpointPrecisionAt1 latencyP50Ms latencyP95Ms`;
const DETAIL_FIELDS = `id stages { stage p50Ms p95Ms }
  categories { category questions hitRate mrr answerRecall refusalAccuracy }`;

interface GraphqlBody {
  data: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}

/**
 * evalRuns and evalRun over HTTP against the real API: golden reports written by the eval's own
 * report writer into AGENTIC_RAG_EVAL_RESULTS_DIR, read back with their figures, newest first;
 * a malformed report skipped and logged; reader keys refused; a scoped admin sees its own runs.
 */
describe('evalRuns over GraphQL', () => {
  let directory: string;
  let runtime: RagRuntime;
  let api: Awaited<ReturnType<typeof createApi>>;
  let url: string;
  const keys: Record<'admin' | 'reader' | 'otherAdmin', string> = { admin: '', reader: '', otherAdmin: '' };
  const logLines: string[] = [];
  const workspaceId = uniqueWorkspace('evalruns');

  beforeAll(async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'eval-runs-'));
    // Not created yet: the first test reads a directory that does not exist.
    directory = path.join(root, 'results');
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      REDIS_URL: undefined,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_EVAL_RESULTS_DIR: directory,
      LOG_LEVEL: 'warn',
    });
    const logger = createJsonLogger({ level: 'warn', write: (line) => void logLines.push(line) });
    runtime = await createRuntime({ config, sql, logger });
    const service = new RagService(runtime, { limiter: null });
    const make = async (role: 'admin' | 'reader', scope: string) =>
      (await service.keys.create({ workspaceId: scope, role, label: 'eval-runs', createdBy: 'test' })).key;
    keys.admin = await make('admin', '*');
    keys.reader = await make('reader', '*');
    keys.otherAdmin = await make('admin', uniqueWorkspace('elsewhere'));
    api = await createApi(service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    api?.server.closeAllConnections();
    await new Promise((resolve) => api?.server.close(resolve));
    await api?.stop();
    const sql = runtime?.sql;
    await runtime?.close();
    await sql?.close();
    if (directory) await rm(path.dirname(directory), { recursive: true, force: true });
  });

  async function query(key: string, document: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: document, variables }),
    });
    return (await response.json()) as GraphqlBody;
  }

  it('answers an empty list while the results directory does not exist', async () => {
    const body = await query(keys.admin, `{ evalRuns { id } }`);
    expect(body).toEqual({ data: { evalRuns: [] } });
  });

  it('lists both golden runs newest first with the figures their reports hold, skipping a malformed file', async () => {
    const { older, newer, malformedId } = await writeEvalReports(directory, workspaceId);
    const body = await query(keys.admin, `{ evalRuns { ${RUN_FIELDS} } }`);
    expect(body.errors).toBeUndefined();
    const runs = body.data!.evalRuns as Array<Record<string, unknown>>;
    expect(runs.map((run) => run.id)).toEqual([newer.id, older.id]);
    expect(newer.id).toBe('golden-2026-11-21T10-00-00-000Z');

    // The scoring put the first expected document at rank 2 once and missed the other (older),
    // then found both first (newer): the API shows exactly that.
    const [latest, before] = runs as [Record<string, unknown>, Record<string, unknown>];
    expect(before).toMatchObject({
      startedAt: '2026-11-20T10:00:00.000Z',
      dataset: 'eval/agentic-rag/eval-runs-test.jsonl',
      workspaceId,
      answerer: 'library',
      k: 10,
      questions: 3,
      answerable: 2,
      hitRate: 0.5,
      mrr: 0.25,
      answerRecall: 0.5,
      refusalAccuracy: 1,
      refusedWhenRequired: 1,
      refusalRequired: 1,
      falseRefusals: 0,
      endpointPrecisionAt1: 0,
    });
    expect(latest).toMatchObject({ hitRate: 1, mrr: 1, answerRecall: 1, endpointPrecisionAt1: 1 });
    for (const [run, { report }] of [
      [latest, newer],
      [before, older],
    ] as const) {
      const { summary } = report;
      expect(run).toMatchObject({
        citationCoverage: summary.citationCoverage,
        citationPrecision: summary.citationPrecision,
        latencyP50Ms: summary.latency.totalMs.p50,
        latencyP95Ms: summary.latency.totalMs.p95,
      });
      const detail = await query(keys.admin, `query($id: ID!) { evalRun(id: $id) { ${DETAIL_FIELDS} } }`, {
        id: run.id,
      });
      expect(detail.errors).toBeUndefined();
      const { stages, categories } = detail.data!.evalRun as Record<string, unknown>;
      expect(stages).toEqual(
        Object.entries(summary.latency.stages).map(([stage, { p50, p95 }]) => ({
          stage,
          p50Ms: p50,
          p95Ms: p95,
        })),
      );
      expect(categories).toEqual(report.categories);
    }
    expect((latest.latencyP50Ms as number) < (before.latencyP50Ms as number)).toBe(true);
    expect(older.report.categories).toEqual([
      { category: 'endpoint', questions: 1, hitRate: 1, mrr: 0.5, answerRecall: 1, refusalAccuracy: 1 },
      { category: 'schema', questions: 1, hitRate: 0, mrr: 0, answerRecall: 0, refusalAccuracy: 1 },
      {
        category: 'out-of-corpus',
        questions: 1,
        hitRate: null,
        mrr: null,
        answerRecall: null,
        refusalAccuracy: 1,
      },
    ]);

    // The malformed file is left out and counted in a warning, not an error.
    const skipped = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'eval-runs-skipped');
    expect(skipped.at(-1)).toMatchObject({ skipped: 1, files: [`${malformedId}.json`] });
    expect(
      await query(keys.admin, 'query($id: ID!) { evalRun(id: $id) { id } }', { id: malformedId }),
    ).toEqual({ data: { evalRun: null } });
  });

  it('reads one run by id, and refuses an id that is not a run id', async () => {
    const one = await query(keys.admin, 'query($id: ID!) { evalRun(id: $id) { id hitRate } }', {
      id: 'golden-2026-11-20T10-00-00-000Z',
    });
    expect(one).toEqual({ data: { evalRun: { id: 'golden-2026-11-20T10-00-00-000Z', hitRate: 0.5 } } });
    expect(
      await query(keys.admin, 'query($id: ID!) { evalRun(id: $id) { id } }', { id: 'golden-1999' }),
    ).toEqual({ data: { evalRun: null } });
    const outside = await query(keys.admin, 'query($id: ID!) { evalRun(id: $id) { id } }', {
      id: '../../etc/passwd',
    });
    expect(outside.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('honours limit, refuses a limit out of range, and limits a scoped admin to its workspace', async () => {
    const latest = await query(keys.admin, '{ evalRuns(limit: 1) { id } }');
    expect(latest).toEqual({ data: { evalRuns: [{ id: 'golden-2026-11-21T10-00-00-000Z' }] } });
    const tooMany = await query(keys.admin, '{ evalRuns(limit: 5000) { id } }');
    expect(tooMany.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(await query(keys.otherAdmin, '{ evalRuns { id } }')).toEqual({ data: { evalRuns: [] } });
  });

  it('refuses a reader key with FORBIDDEN', async () => {
    for (const document of [
      '{ evalRuns { id } }',
      '{ evalRun(id: "golden-2026-11-20T10-00-00-000Z") { id } }',
    ]) {
      const body = await query(keys.reader, document);
      expect(body.errors?.[0]?.extensions.code, document).toBe('FORBIDDEN');
    }
  });
});
