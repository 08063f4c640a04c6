import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Two golden reports as `pnpm rag:eval` writes them, and one file that only looks like a report,
 * written to `directory` for `workspaceId`: what the evalRuns tests read through the API. The
 * reports are checked in (eval-reports/, workspace `__WORKSPACE__`); packages/bench's
 * report-fixtures.test.ts keeps them what its scoring and writer make. The older run finds one
 * of two expected documents at rank 2; the newer finds both at rank 1.
 */

/** The fields of a golden report these tests compare. */
export interface FixtureReport {
  startedAt: string;
  workspaceId: string;
  summary: {
    citationCoverage: number;
    citationPrecision: number;
    latency: { totalMs: { p50: number; p95: number }; stages: Record<string, { p50: number; p95: number }> };
  };
  categories: unknown[];
}

const FIXTURES = path.join(import.meta.dirname, 'eval-reports');

async function copyReport(directory: string, name: string, workspaceId: string) {
  const text = (await readFile(path.join(FIXTURES, `${name}.json`), 'utf8')).replaceAll(
    '"__WORKSPACE__"',
    JSON.stringify(workspaceId),
  );
  await writeFile(path.join(directory, `${name}.json`), text);
  return { report: JSON.parse(text) as FixtureReport, id: name };
}

export async function writeEvalReports(directory: string, workspaceId: string) {
  await mkdir(directory, { recursive: true });
  const older = await copyReport(directory, 'golden-2026-11-20T10-00-00-000Z', workspaceId);
  const newer = await copyReport(directory, 'golden-2026-11-21T10-00-00-000Z', workspaceId);
  // Named like the newest report, so it is read first: it must be skipped, not end the listing.
  const malformedId = 'golden-2026-11-22T10-00-00-000Z';
  await writeFile(
    path.join(directory, `${malformedId}.json`),
    '{"kind": "golden", "dataset": 42, "summary": {',
  );
  return { older, newer, malformedId };
}
