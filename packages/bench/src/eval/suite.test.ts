import { describe, expect, it } from 'vitest';
import type { BeirReport, EvalMode } from './run-beir.js';
import { lostRows, renderSuiteTable, SUITE_DATASETS, suiteRow } from './suite.js';

const report = (scores: Partial<Record<EvalMode, number>>): BeirReport => ({
  dataset: 'd',
  workspaceId: 'w',
  queries: 30,
  ingest: {
    documents: { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 },
    chunks: 0,
    seconds: 0,
  },
  modes: Object.entries(scores).map(([mode, ndcgAt10]) => ({
    mode: mode as EvalMode,
    queries: 30,
    ndcgAt10,
    recallAt100: 0,
    mrrAt10: 0,
    latencyMs: { p50: 0, p95: 0 },
  })),
});

describe('the evaluation suite', () => {
  it.each([
    // hybrid above, equal to (at printed precision) and below its best single channel
    [{ dense: 0.4, lexical: 0.5, graph: 0.1, hybrid: 0.55 }, 'lexical', 0.05, false],
    [{ dense: 0.4, lexical: 0.5, graph: 0.1, hybrid: 0.49996 }, 'lexical', -0.00004, false],
    [{ dense: 0.6, lexical: 0.5, graph: 0.1, hybrid: 0.58 }, 'dense', -0.02, true],
    [{ dense: 0.2, lexical: 0.3, graph: 0.35, hybrid: 0.34 }, 'graph', -0.01, true],
  ] as const)('%j: best %s, margin %d, lost %s', (scores, best, margin, lost) => {
    const row = suiteRow('d', 'dev', report(scores));
    expect(row.best.mode).toBe(best);
    expect(row.margin).toBeCloseTo(margin, 10);
    expect(lostRows([row])).toHaveLength(lost ? 1 : 0);
  });

  it('does not count a run without the hybrid as a loss', () => {
    expect(lostRows([suiteRow('d', 'dev', report({ dense: 0.6, lexical: 0.5 }))])).toEqual([]);
  });

  it('prints a row per dataset and split with each mode and the margin', () => {
    const table = renderSuiteTable(
      [suiteRow('postgres-docs', 'test', report({ dense: 0.4, lexical: 0.5, hybrid: 0.55 }))],
      ['dense', 'lexical', 'hybrid'],
    );
    expect(table.split('\n')).toEqual([
      'dataset        split  queries   dense  lexical  hybrid  best single   margin',
      'postgres-docs  test        30  0.4000   0.5000  0.5500      lexical  +0.0500',
    ]);
  });

  it('holds out a test split of every dataset but the tuned-on sample', () => {
    expect(
      SUITE_DATASETS.map((dataset) => [dataset.name, dataset.splits.map((split) => split.role)]),
    ).toEqual([
      ['sample', ['dev']],
      ['postgres-docs', ['dev', 'test']],
      ['python-docs', ['dev', 'test']],
    ]);
  });
});
