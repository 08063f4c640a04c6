import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { metricsRegistry } from './metrics.js';

/**
 * deploy/grafana/agentic-rag.json queries only what the service exports: every PromQL expression
 * of every panel (and of its template variables) is read for metric names, and each must be a
 * metric of the registry /metrics serves, a histogram's _bucket/_sum/_count included. A renamed
 * metric, or a panel written for one that was never added, fails here instead of showing "No data".
 */
const DASHBOARD = new URL('../../../../deploy/grafana/agentic-rag.json', import.meta.url);

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}

/** PromQL words that are not metric names when they stand outside a function call. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression selects. */
function metricNames(expression: string): string[] {
  const stripped = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...stripped.matchAll(/(?<![\w.$])[A-Za-z_:][\w:]*/g)]
    .filter((match) => !/^\s*\(/.test(stripped.slice(match.index + match[0].length)))
    .map((match) => match[0])
    .filter((name) => !KEYWORDS.has(name.toLowerCase()));
}

async function exportedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await metricsRegistry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    if (String(metric.type) === 'summary')
      for (const suffix of ['_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating: { list: Array<{ definition?: string }> };
  };
  const panels = dashboard.panels.filter((panel) => panel.type !== 'row');

  it.each([
    [
      'sum by (le, stage) (rate(agentic_rag_stage_duration_seconds_bucket{a="b"}[5m]))',
      ['agentic_rag_stage_duration_seconds_bucket'],
    ],
    ['sum(rate(x_total[1m])) / sum(rate(y_total[1m])) > bool 0', ['x_total', 'y_total']],
    ['histogram_quantile(0.9, sum without (job) (rate(z_bucket[$__rate_interval])))', ['z_bucket']],
    ['up offset 5m', ['up']],
  ])('reads the metric names of %s', (expression, names) => {
    expect(metricNames(expression)).toEqual(names);
  });

  it('names only metrics the service exports, in every panel', async () => {
    const exported = await exportedNames();
    expect(panels.length).toBeGreaterThan(0);
    for (const panel of panels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        const names = metricNames(expr);
        expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of names) expect(exported.has(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
    for (const variable of dashboard.templating.list) {
      const metric = /label_values\(\s*([A-Za-z_:][\w:]*)/.exec(variable.definition ?? '')?.[1];
      if (metric) expect(exported.has(metric), metric).toBe(true);
    }
  });

  it('shows retrieval scores, stage latency, tool usage, caches and the queue', () => {
    const queried = new Set(
      panels.flatMap((panel) => panel.targets!.flatMap(({ expr }) => metricNames(expr))),
    );
    for (const name of [
      'agentic_rag_retrieval_score_bucket',
      'agentic_rag_stage_duration_seconds_bucket',
      'agentic_rag_tool_calls_total',
      'agentic_rag_cache_lookups_total',
      'agentic_rag_queue_jobs',
      'agentic_rag_dead_letter_jobs',
    ])
      expect(queried.has(name), name).toBe(true);
  });
});
