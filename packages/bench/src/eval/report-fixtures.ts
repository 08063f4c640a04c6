import type { AnswerObservation } from './answerer.js';
import { parseGoldenDataset } from './golden-dataset.js';
import { byCategory, scoreQuestion, summarize } from './golden-score.js';
import type { GoldenReport } from './run-golden.js';

/**
 * Two golden reports as `pnpm rag:eval` scores and writes them, for the API's evalRuns tests
 * (apps/api/src/eval-reports/, checked in with the workspace `__WORKSPACE__`; report-fixtures.test.ts
 * keeps them what this scoring makes). The older run finds one of two expected documents at
 * rank 2; the newer finds both at rank 1.
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

export function evalReportFixtures(workspaceId: string): { older: GoldenReport; newer: GoldenReport } {
  return {
    older: report(
      '2026-11-20T10:00:00.000Z',
      [
        observation(['api/other.md', 'api/widgets.md'], 'Send POST /widgets.', 120),
        observation(['api/other.md'], 'It has a name.', 80),
        observation([], '', 10, true),
      ],
      workspaceId,
    ),
    newer: report(
      '2026-11-21T10:00:00.000Z',
      [
        observation(['api/widgets.md'], 'Send POST /widgets.', 60),
        observation(['schema/widget.md'], 'A name and a colour.', 40),
        observation([], '', 5, true),
      ],
      workspaceId,
    ),
  };
}
