import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  byCategory,
  parseGoldenDataset,
  scoreQuestion,
  summarize,
  writeGoldenReport,
  type AnswerObservation,
  type GoldenReport,
} from '@agentic-rag/bench';

/**
 * Two golden reports as `pnpm rag:eval` writes them (its own scoring and report writer), and one
 * file that only looks like a report, in `directory`: what the evalRuns tests read through the API.
 * The older run finds one of two expected documents at rank 2; the newer finds both at rank 1.
 */

const DATASET = [
  '{"id": "e-1", "category": "endpoint", "question": "How do I create a widget?", "expected_sources": ["api/widgets.md"], "expected_facts": ["POST /widgets"], "precision_set": true}',
  '{"id": "s-1", "category": "schema", "question": "Which fields does a widget have?", "expected_sources": ["schema/widget.md"], "expected_facts": ["colour"]}',
  '{"id": "o-1", "category": "out-of-corpus", "question": "What is the capital of Peru?", "must_refuse": true}',
].join('\n');

const observation = (
  retrieved: string[],
  answer: string,
  totalMs: number,
  refused = false,
): AnswerObservation => ({
  answer,
  refused,
  cached: false,
  runId: 'run',
  citations: refused ? [] : retrieved.slice(0, 1),
  retrieved,
  citationCoverage: refused ? 0 : 1,
  stages: [
    { name: 'retrieve', ms: totalMs * 0.6 },
    { name: 'synthesize', ms: totalMs * 0.3 },
  ],
  totalMs,
  snippets: [],
});

function report(startedAt: string, observations: AnswerObservation[], workspaceId: string): GoldenReport {
  const entries = parseGoldenDataset(DATASET, 'eval-runs test set');
  const results = entries.map((entry, index) => scoreQuestion(entry, observations[index]!, null, 10));
  return {
    kind: 'golden',
    dataset: 'eval/agentic-rag/eval-runs-test.jsonl',
    answerer: 'library',
    workspaceId,
    k: 10,
    startedAt,
    seconds: 1.5,
    summary: summarize(results),
    categories: byCategory(results),
    results,
  };
}

export async function writeEvalReports(directory: string, workspaceId: string) {
  const older = report(
    '2026-11-20T10:00:00.000Z',
    [
      observation(['api/other.md', 'api/widgets.md'], 'Send POST /widgets.', 120),
      observation(['api/other.md'], 'It has a name.', 80),
      observation([], '', 10, true),
    ],
    workspaceId,
  );
  const newer = report(
    '2026-11-21T10:00:00.000Z',
    [
      observation(['api/widgets.md'], 'Send POST /widgets.', 60),
      observation(['schema/widget.md'], 'A name and a colour.', 40),
      observation([], '', 5, true),
    ],
    workspaceId,
  );
  const olderFiles = await writeGoldenReport(older, directory);
  const newerFiles = await writeGoldenReport(newer, directory);
  // Named like the newest report, so it is read first: it must be skipped, not end the listing.
  const malformed = path.join(directory, 'golden-2026-11-22T10-00-00-000Z.json');
  await writeFile(malformed, '{"kind": "golden", "dataset": 42, "summary": {');
  const id = (file: string) => path.basename(file, '.json');
  return {
    older: { report: older, id: id(olderFiles.json) },
    newer: { report: newer, id: id(newerFiles.json) },
    malformedId: id(malformed),
  };
}
