import { readFile } from 'node:fs/promises';
import { ErrorCode, RagError } from '@agentic-rag/core';
import type { QuestionResult } from './golden-score.js';
import type { GoldenReport } from './run-golden.js';

export interface MetricChange {
  metric: string;
  before: number;
  after: number;
  delta: number;
  /** Whether a higher value is better (latency: no). */
  higherIsBetter: boolean;
}

export interface QuestionChange {
  id: string;
  question: string;
  changes: string[];
}

export interface Comparison {
  before: string;
  after: string;
  metrics: MetricChange[];
  questions: QuestionChange[];
  /** Questions in only one of the runs. */
  onlyBefore: string[];
  onlyAfter: string[];
}

export async function loadGoldenReport(file: string): Promise<GoldenReport> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RagError(ErrorCode.NOT_FOUND, `cannot read ${file}: ${error.code ?? error.message}`);
  });
  let report: GoldenReport;
  try {
    report = JSON.parse(text) as GoldenReport;
  } catch {
    throw new RagError(ErrorCode.INVALID_INPUT, `${file} is not JSON`);
  }
  if (report?.kind !== 'golden' || !Array.isArray(report.results))
    throw new RagError(ErrorCode.INVALID_INPUT, `${file} is not a rag:eval --dataset result`);
  return report;
}

/** Two runs side by side: every headline metric, and every question whose outcome moved. */
export function compareReports(before: GoldenReport, after: GoldenReport, names = ['A', 'B']): Comparison {
  const metric = (
    name: string,
    pick: (report: GoldenReport) => number,
    higherIsBetter = true,
  ): MetricChange => {
    const a = pick(before);
    const b = pick(after);
    return { metric: name, before: a, after: b, delta: b - a, higherIsBetter };
  };
  const metrics = [
    metric('hit rate', (report) => report.summary.hitRate),
    metric('MRR', (report) => report.summary.mrr),
    metric('answer recall', (report) => report.summary.answerRecall),
    metric('citation coverage', (report) => report.summary.citationCoverage),
    metric('citation precision', (report) => report.summary.citationPrecision),
    metric('refusal accuracy', (report) => report.summary.refusal.accuracy),
    metric('endpoint precision@1', (report) => report.summary.endpointPrecision.precisionAt1),
    metric('latency p50 ms (cold)', (report) => report.summary.cache.coldMs.p50, false),
    metric('latency p95 ms (cold)', (report) => report.summary.cache.coldMs.p95, false),
  ];
  const afterById = new Map(after.results.map((result) => [result.id, result]));
  const beforeIds = new Set(before.results.map((result) => result.id));
  const questions: QuestionChange[] = [];
  for (const old of before.results) {
    const now = afterById.get(old.id);
    if (!now) continue;
    const changes = questionChanges(old, now);
    if (changes.length > 0) questions.push({ id: old.id, question: old.question, changes });
  }
  return {
    before: names[0]!,
    after: names[1]!,
    metrics,
    questions,
    onlyBefore: before.results.filter((result) => !afterById.has(result.id)).map((result) => result.id),
    onlyAfter: after.results.filter((result) => !beforeIds.has(result.id)).map((result) => result.id),
  };
}

function questionChanges(old: QuestionResult, now: QuestionResult): string[] {
  const changes: string[] = [];
  const rank = (result: QuestionResult) =>
    result.firstRelevantRank === null ? 'miss' : `rank ${result.firstRelevantRank}`;
  if (old.firstRelevantRank !== now.firstRelevantRank) changes.push(`${rank(old)} → ${rank(now)}`);
  if (old.refused !== now.refused) changes.push(now.refused ? 'now refused' : 'no longer refused');
  if (Math.abs(old.answerRecall - now.answerRecall) > 1e-9)
    changes.push(`recall ${old.answerRecall.toFixed(2)} → ${now.answerRecall.toFixed(2)}`);
  if (old.topIsExpected !== now.topIsExpected && now.topIsExpected !== null)
    changes.push(now.topIsExpected ? 'endpoint now first' : 'endpoint no longer first');
  if ((old.error === null) !== (now.error === null))
    changes.push(now.error ? `now fails: ${now.error}` : 'no longer fails');
  return changes;
}

export function renderComparison(comparison: Comparison): string {
  const format = (change: MetricChange) =>
    change.metric.includes('ms') ? change.before.toFixed(1) : change.before.toFixed(4);
  const lines = [
    `${'metric'.padEnd(24)} ${comparison.before.padStart(10)} ${comparison.after.padStart(10)}      delta`,
  ];
  for (const change of comparison.metrics) {
    const better =
      change.delta === 0 ? '' : change.delta > 0 === change.higherIsBetter ? '  better' : '  worse';
    const digits = change.metric.includes('ms') ? 1 : 4;
    lines.push(
      `${change.metric.padEnd(24)} ${format(change).padStart(10)} ${change.after.toFixed(digits).padStart(10)} ${`${change.delta >= 0 ? '+' : ''}${change.delta.toFixed(digits)}`.padStart(10)}${better}`,
    );
  }
  lines.push('', `${comparison.questions.length} questions changed`);
  for (const question of comparison.questions) lines.push(`  ${question.id}: ${question.changes.join('; ')}`);
  if (comparison.onlyBefore.length > 0)
    lines.push(`only in ${comparison.before}: ${comparison.onlyBefore.join(', ')}`);
  if (comparison.onlyAfter.length > 0)
    lines.push(`only in ${comparison.after}: ${comparison.onlyAfter.join(', ')}`);
  return lines.join('\n');
}
