import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GoldenReport } from './run-golden.js';
import { renderChart } from './svg-chart.js';

const pct = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);
const fixed = (value: number | null, digits: number) => (value === null ? '–' : value.toFixed(digits));
const ms = (value: number) => value.toFixed(1);

/** The headline figures, one `[name, value]` per row: the terminal table and the markdown share them. */
export function headline(report: GoldenReport): Array<[string, string]> {
  const { summary } = report;
  const rows: Array<[string, string]> = [
    ['questions', `${summary.questions} (${summary.answerable} answerable)`],
    [`hit rate@${report.k}`, pct(summary.hitRate)],
    [`MRR@${report.k}`, summary.mrr.toFixed(4)],
    ['answer recall (expected facts)', pct(summary.answerRecall)],
    ['citation coverage (self-check)', pct(summary.citationCoverage)],
    ['citation precision (cites an expected doc)', pct(summary.citationPrecision)],
    [
      'refusals',
      `${summary.refusal.refusedWhenRequired}/${summary.refusal.required} out-of-corpus refused, ${summary.refusal.falseRefusals} answerable refused (accuracy ${pct(summary.refusal.accuracy)})`,
    ],
    [
      'endpoint precision@1',
      `${pct(summary.endpointPrecision.precisionAt1)} of ${summary.endpointPrecision.questions} (target ≥ ${pct(summary.endpointPrecision.target)}: ${summary.endpointPrecision.met ? 'met' : 'MISSED'})`,
    ],
    [
      'endpoint first citation / search top-1',
      `${pct(summary.endpointPrecision.firstCitationAt1 ?? null)} / ${pct(summary.endpointPrecision.searchAt1 ?? null)}`,
    ],
    ['latency p50 / p95 (ms), cold', `${ms(summary.cache.coldMs.p50)} / ${ms(summary.cache.coldMs.p95)}`],
  ];
  if (summary.cache.warmMs)
    rows.push([
      'latency p50 / p95 (ms), warm',
      `${ms(summary.cache.warmMs.p50)} / ${ms(summary.cache.warmMs.p95)} (cache hits ${pct(summary.cache.warmHitRate ?? 0)}, p50 ${summary.cache.speedup?.toFixed(1) ?? '–'}× faster)`,
    ]);
  if (summary.judge)
    rows.push([
      'LLM judge',
      `faithfulness ${summary.judge.faithfulness.toFixed(2)}, relevance ${summary.judge.relevance.toFixed(2)} (${summary.judge.judged} judged)`,
    ]);
  const failed = report.results.filter((result) => result.error !== null).length;
  if (failed > 0) rows.push(['failed questions', String(failed)]);
  return rows;
}

/** The summary printed at the end of a run. */
export function renderSummaryTable(report: GoldenReport): string {
  const rows = headline(report);
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  lines.push('', `${'category'.padEnd(14)} questions  hit rate   MRR     recall  refusal ok`);
  for (const category of report.categories) {
    lines.push(
      `${category.category.padEnd(14)} ${String(category.questions).padStart(9)}  ${pct(category.hitRate).padStart(8)}  ${fixed(category.mrr, 3).padStart(6)}  ${pct(category.answerRecall).padStart(6)}  ${pct(category.refusalAccuracy).padStart(10)}`,
    );
  }
  const stages = Object.entries(report.summary.latency.stages);
  const stageWidth = Math.max(5, ...stages.map(([name]) => name.length));
  lines.push('', `${'stage'.padEnd(stageWidth)}  p50 ms   p95 ms`);
  for (const [name, stage] of stages)
    lines.push(`${name.padEnd(stageWidth)}  ${ms(stage.p50).padStart(6)}  ${ms(stage.p95).padStart(7)}`);
  return lines.join('\n');
}

export function renderMarkdown(report: GoldenReport, chartFile?: string): string {
  const lines = [
    `# rag:eval — ${report.dataset}`,
    '',
    `${report.startedAt} · ${report.answerer} · workspace \`${report.workspaceId}\` · ${report.seconds.toFixed(1)} s`,
    '',
    '| metric | value |',
    '| --- | --- |',
    ...headline(report).map(([name, value]) => `| ${name} | ${value} |`),
    '',
    ...(chartFile ? [`![stage latency and score distributions](${chartFile})`, ''] : []),
    '## By category',
    '',
    '| category | questions | hit rate | MRR | answer recall | refusal accuracy |',
    '| --- | --- | --- | --- | --- | --- |',
    ...report.categories.map(
      (category) =>
        `| ${category.category} | ${category.questions} | ${pct(category.hitRate)} | ${fixed(category.mrr, 3)} | ${pct(category.answerRecall)} | ${pct(category.refusalAccuracy)} |`,
    ),
    '',
    '## Stage latency',
    '',
    '| stage | p50 ms | p95 ms |',
    '| --- | --- | --- |',
    ...Object.entries(report.summary.latency.stages).map(
      ([name, stage]) => `| ${name} | ${ms(stage.p50)} | ${ms(stage.p95)} |`,
    ),
    '',
    '## Questions that missed',
    '',
    '| id | question | what went wrong | top retrieved |',
    '| --- | --- | --- | --- |',
  ];
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  for (const result of report.results) {
    const problems = [
      result.error,
      result.mustRefuse && !result.refused ? 'answered an out-of-corpus question' : null,
      !result.mustRefuse && result.refused ? 'refused an answerable question' : null,
      !result.mustRefuse && !result.hit ? `no expected document in the top ${report.k}` : null,
      result.factsMissing.length > 0 && !result.refused
        ? `missing facts: ${result.factsMissing.join(', ')}`
        : null,
      result.topIsExpected === false ? 'first retrieved is not the endpoint' : null,
    ].filter((problem): problem is string => problem !== null);
    if (problems.length === 0) continue;
    lines.push(
      `| ${result.id} | ${cell(result.question)} | ${cell(problems.join('; '))} | ${cell(result.retrieved.slice(0, 3).join(', '))} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `<dir>/golden-<time>.json|.md|.svg`: the result, the report and its chart. */
export async function writeGoldenReport(
  report: GoldenReport,
  directory: string,
): Promise<{ json: string; markdown: string; svg: string }> {
  await mkdir(directory, { recursive: true });
  const base = `golden-${report.startedAt.replace(/[:.]/g, '-')}`;
  const files = {
    json: path.join(directory, `${base}.json`),
    markdown: path.join(directory, `${base}.md`),
    svg: path.join(directory, `${base}.svg`),
  };
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files.svg, renderChart(report));
  await writeFile(files.markdown, renderMarkdown(report, path.basename(files.svg)));
  return files;
}
