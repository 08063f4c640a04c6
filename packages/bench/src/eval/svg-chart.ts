import type { GoldenReport } from './run-golden.js';

const WIDTH = 760;
const FONT = 'font-family="ui-sans-serif, system-ui, sans-serif" font-size="12"';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The report's picture, in plain SVG (no charting library, opens in any browser): per-stage
 * latency p50/p95 as paired bars, then histograms of the per-question scores (reciprocal rank,
 * answer recall) and of cold and warm latency.
 */
export function renderChart(report: GoldenReport): string {
  const parts: string[] = [];
  let y = 30;
  parts.push(
    `<text x="20" y="${y}" font-size="16" font-weight="bold">${escape(`rag:eval — ${report.dataset}`)}</text>`,
  );
  y += 20;
  parts.push(
    `<text x="20" y="${y}">${escape(`${report.summary.questions} questions · ${report.answerer} · workspace ${report.workspaceId} · ${report.startedAt}`)}</text>`,
  );

  // Stage latency: one row per stage, p50 solid and p95 pale behind it, on a shared scale.
  y += 30;
  parts.push(`<text x="20" y="${y}" font-weight="bold">Stage latency (ms): p50 dark, p95 light</text>`);
  const stages = Object.entries(report.summary.latency.stages);
  const max = Math.max(1, ...stages.map(([, stage]) => stage.p95));
  const barWidth = WIDTH - 320;
  for (const [name, stage] of stages) {
    y += 22;
    parts.push(`<text x="20" y="${y + 11}">${escape(name)}</text>`);
    parts.push(
      `<rect x="160" y="${y}" width="${((stage.p95 / max) * barWidth).toFixed(1)}" height="14" fill="#9ecae1"/>`,
    );
    parts.push(
      `<rect x="160" y="${y}" width="${((stage.p50 / max) * barWidth).toFixed(1)}" height="14" fill="#3182bd"/>`,
    );
    parts.push(
      `<text x="${(170 + (stage.p95 / max) * barWidth).toFixed(1)}" y="${y + 11}">${stage.p50.toFixed(1)} / ${stage.p95.toFixed(1)}</text>`,
    );
  }

  const answerable = report.results.filter((result) => !result.mustRefuse);
  const between = (low: number, high: number) => (value: number) => value >= low && value < high;
  const histograms: Array<{
    title: string;
    values: number[];
    buckets: Array<[string, (value: number) => boolean]>;
  }> = [
    {
      title: 'Reciprocal rank of the first expected document',
      values: answerable.map((result) => result.reciprocalRank),
      buckets: [
        ['miss', (value) => value === 0],
        ['≤1/6', (value) => value > 0 && value <= 1 / 6],
        ['1/3–1/5', between(0.2, 0.34)],
        ['1/2', between(0.34, 0.99)],
        ['1', (value) => value >= 0.99],
      ],
    },
    {
      title: 'Answer recall of expected facts',
      values: answerable.map((result) => result.answerRecall),
      buckets: [
        ['0', (value) => value === 0],
        ['<1/2', (value) => value > 0 && value < 0.5],
        ['<1', between(0.5, 0.999)],
        ['1', (value) => value >= 0.999],
      ],
    },
    {
      title: 'Latency per question (ms), cold',
      values: report.results.map((result) => result.coldMs),
      buckets: [
        ['<25', between(0, 25)],
        ['<50', between(25, 50)],
        ['<100', between(50, 100)],
        ['<200', between(100, 200)],
        ['<500', between(200, 500)],
        ['≥500', (value) => value >= 500],
      ],
    },
  ];
  for (const histogram of histograms) {
    y += 40;
    parts.push(`<text x="20" y="${y}" font-weight="bold">${escape(histogram.title)}</text>`);
    const counts = histogram.buckets.map(([, test]) => histogram.values.filter(test).length);
    const tallest = Math.max(1, ...counts);
    const columnWidth = Math.min(90, (WIDTH - 60) / counts.length);
    const baseY = y + 110;
    counts.forEach((count, index) => {
      const height = (count / tallest) * 90;
      const x = 30 + index * columnWidth;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${(baseY - height).toFixed(1)}" width="${(columnWidth - 8).toFixed(1)}" height="${height.toFixed(1)}" fill="#31a354"/>`,
      );
      parts.push(`<text x="${x.toFixed(1)}" y="${(baseY - height - 4).toFixed(1)}">${count}</text>`);
      parts.push(
        `<text x="${x.toFixed(1)}" y="${baseY + 14}">${escape(histogram.buckets[index]![0])}</text>`,
      );
    });
    y = baseY + 20;
  }
  const height = y + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT}>
<rect width="100%" height="100%" fill="white"/>
${parts.join('\n')}
</svg>
`;
}
