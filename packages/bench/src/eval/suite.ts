import { access } from 'node:fs/promises';
import path from 'node:path';
import type { HybridRetriever, IngestPipeline, IngestSummary } from '@agentic-rag/core';
import { loadBeirDataset } from './beir-dataset.js';
import { textTable } from './text-table.js';
import { runBeir, type BeirReport, type EvalMode } from './run-beir.js';

/**
 * The retrieval datasets `pnpm rag:eval` runs by default, each in its own workspace. `dev` is what
 * tuning may look at; `test` is held out: it is reported, never tuned on. The sample fixture was
 * tuned on in earlier work, so it counts as dev only.
 */
export type SplitRole = 'dev' | 'test';

export interface SuiteDataset {
  name: string;
  /** Relative to the repository root. */
  directory: string;
  /** Each qrels file (`qrels/<file>.tsv`) and the role it plays: tuned on (dev) or held out (test). */
  splits: ReadonlyArray<{ file: string; role: SplitRole }>;
}

export const SUITE_DATASETS: readonly SuiteDataset[] = [
  // Its only qrels file is called test, but earlier work was tuned on it.
  { name: 'sample', directory: 'eval/fixtures/beir-sample', splits: [{ file: 'test', role: 'dev' }] },
  {
    name: 'postgres-docs',
    directory: 'eval/datasets/postgres-docs',
    splits: [
      { file: 'dev', role: 'dev' },
      { file: 'test', role: 'test' },
    ],
  },
  {
    name: 'python-docs',
    directory: 'eval/datasets/python-docs',
    splits: [
      { file: 'dev', role: 'dev' },
      { file: 'test', role: 'test' },
    ],
  },
];

/** Single channels: the fusion is measured against the best of them. */
const SINGLE_CHANNELS: readonly EvalMode[] = ['dense', 'lexical', 'graph'];

export interface SuiteRow {
  dataset: string;
  split: string;
  report: BeirReport;
  /** The best single channel's nDCG@10, and which one it was. */
  best: { mode: EvalMode; ndcgAt10: number };
  /** The hybrid's nDCG@10 minus the best single channel's (negative: the fusion lost). */
  margin: number;
}

export interface RunSuiteOptions {
  root: string;
  datasets?: readonly SuiteDataset[];
  /** Only splits of these roles (default: every split a dataset has). */
  splits?: readonly SplitRole[];
  pipeline: IngestPipeline;
  retriever: HybridRetriever;
  modes: readonly EvalMode[];
  onProgress?: (label: string, done: number, total: number) => void;
  /** One line as each dataset starts and as its corpus is in: what the run is doing between bars. */
  onPhase?: (line: string) => void;
  /** A dataset whose directory is missing is skipped and reported here. */
  onSkip?: (dataset: SuiteDataset, reason: string) => void;
}

/** Every dataset and split, each channel and the fusion side by side. */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteRow[]> {
  const rows: SuiteRow[] = [];
  for (const dataset of options.datasets ?? SUITE_DATASETS) {
    const directory = path.resolve(options.root, dataset.directory);
    try {
      await access(path.join(directory, 'corpus.jsonl'));
    } catch {
      options.onSkip?.(dataset, `${dataset.directory}/corpus.jsonl not found`);
      continue;
    }
    for (const split of dataset.splits.filter(
      (entry) => !options.splits || options.splits.includes(entry.role),
    )) {
      const label = `${dataset.name}/${split.role}`;
      options.onPhase?.(
        `${label}: ingesting ${dataset.directory}/corpus.jsonl (unchanged records are skipped), then each mode`,
      );
      const report = await runBeir({
        dataset: await loadBeirDataset(directory, split.file),
        workspaceId: `eval-${dataset.name}`,
        pipeline: options.pipeline,
        retriever: options.retriever,
        modes: options.modes,
        onIngested: (summary) => options.onPhase?.(`${label}: ${describeIngest(summary)}`),
        onProgress: (mode, done, total) => options.onProgress?.(`${label} ${mode}`, done, total),
      });
      rows.push(suiteRow(dataset.name, split.role, report));
    }
  }
  return rows;
}

export function suiteRow(dataset: string, split: string, report: BeirReport): SuiteRow {
  const singles = report.modes.filter((mode) => SINGLE_CHANNELS.includes(mode.mode));
  const best = singles.reduce(
    (top, mode) => (mode.ndcgAt10 > top.ndcgAt10 ? { mode: mode.mode, ndcgAt10: mode.ndcgAt10 } : top),
    { mode: 'lexical' as EvalMode, ndcgAt10: 0 },
  );
  const hybrid = report.modes.find((mode) => mode.mode === 'hybrid');
  return { dataset, split, report, best, margin: hybrid ? hybrid.ndcgAt10 - best.ndcgAt10 : 0 };
}

/**
 * Rows where the hybrid scored below its best single channel. Scores are compared at the four
 * decimals the table prints, so a difference nobody can see is not a loss.
 */
export function lostRows(rows: readonly SuiteRow[]): SuiteRow[] {
  return rows.filter(
    (row) => row.report.modes.some((mode) => mode.mode === 'hybrid') && Number(row.margin.toFixed(4)) < 0,
  );
}

/** One table: a row per dataset and split, nDCG@10 per mode, and the hybrid's margin. */
export function renderSuiteTable(rows: readonly SuiteRow[], modes: readonly EvalMode[]): string {
  const header = ['dataset', 'split', 'queries', ...modes, 'best single', 'margin'];
  const body = rows.map((row) => [
    row.dataset,
    row.split,
    String(row.report.queries),
    ...modes.map((mode) => row.report.modes.find((entry) => entry.mode === mode)?.ndcgAt10.toFixed(4) ?? '-'),
    row.best.mode,
    `${row.margin >= 0 ? '+' : ''}${row.margin.toFixed(4)}`,
  ]);
  return textTable(header, body);
}

/** An ingest's outcome in a few words, for a progress line. */
export function describeIngest(summary: Pick<IngestSummary, 'documents' | 'chunks' | 'seconds'>): string {
  const { added, updated, unchanged } = summary.documents;
  return `${added} documents added, ${updated} updated, ${unchanged} unchanged; ${summary.chunks} chunks written in ${summary.seconds.toFixed(1)} s`;
}
