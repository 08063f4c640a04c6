import { useState } from 'react';
import { EVAL_RUN, EVAL_RUNS } from '../api/operations.js';
import type { EvalRun, EvalRunDetail } from '../api/types.js';
import { useGraphqlRead } from '../api/use-graphql-read.js';
import { ColumnHeads } from '../layout/ColumnHeads.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';
import { BarChart, type Bar } from './BarChart.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const score = (value: number) => value.toFixed(3);
const milliseconds = (value: number) => `${value.toFixed(1)} ms`;

interface Metric {
  name: string;
  value: (run: EvalRun) => number | null;
  /** rate: a share shown in %; score: from 0 to 1 shown as is (MRR); ms: lower is better. */
  kind: 'rate' | 'score' | 'ms';
}

/** The headline figures, in the order the report prints them; rates higher-is-better, ms lower. */
const METRICS: Metric[] = [
  { name: 'Hit rate', value: (run) => run.hitRate, kind: 'rate' },
  { name: 'MRR', value: (run) => run.mrr, kind: 'score' },
  { name: 'Fact recall', value: (run) => run.answerRecall, kind: 'rate' },
  { name: 'Citation validity', value: (run) => run.citationCoverage, kind: 'rate' },
  { name: 'Citation precision', value: (run) => run.citationPrecision, kind: 'rate' },
  { name: 'Refusal accuracy', value: (run) => run.refusalAccuracy, kind: 'rate' },
  { name: 'Endpoint precision@1', value: (run) => run.endpointPrecisionAt1, kind: 'rate' },
  { name: 'Latency p50', value: (run) => run.latencyP50Ms, kind: 'ms' },
  { name: 'Latency p95', value: (run) => run.latencyP95Ms, kind: 'ms' },
];

const shown = (metric: Metric, value: number) =>
  metric.kind === 'rate' ? percent(value) : metric.kind === 'score' ? score(value) : milliseconds(value);

/** Golden eval runs (`pnpm rag:eval` reports the API reads from disk) with charts (admin keys). */
export function EvalRunsPage() {
  const { apiKey } = useSession();
  const { data, error } = useGraphqlRead<{ evalRuns: EvalRun[] }>(apiKey, EVAL_RUNS, { limit: 50 });
  const runs = data?.evalRuns ?? null;
  const [chosenId, setChosenId] = useState<string | null>(null);

  // Runs come newest first: the one after the chosen run is the run before it.
  const index = runs
    ? Math.max(
        0,
        runs.findIndex((run) => run.id === chosenId),
      )
    : -1;
  const chosen = runs?.[index] ?? null;
  const previous = runs?.[index + 1] ?? null;

  return (
    <>
      <h1>Eval runs</h1>
      <p className="muted">
        Golden-set runs of <code>pnpm rag:eval</code>, read from the API&apos;s eval results directory
        (AGENTIC_RAG_EVAL_RESULTS_DIR), newest first.
      </p>
      <ErrorMessage error={error} />
      {runs?.length === 0 && <p role="status">No eval runs yet: run pnpm rag:eval.</p>}
      {runs && runs.length > 0 && (
        <div className="table-scroll">
          <table className="eval-runs">
            <caption>{runs.length} runs</caption>
            <ColumnHeads
              names={[
                'Started',
                'Dataset',
                'Workspace',
                'Questions',
                'Hit rate',
                'MRR',
                'Fact recall',
                'p50',
                'Charts',
              ]}
            />
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} className={run.id === chosen?.id ? 'chosen' : undefined}>
                  <th scope="row">
                    {new Date(run.startedAt).toLocaleString(undefined, {
                      dateStyle: 'short',
                      timeStyle: 'short',
                    })}
                  </th>
                  <td>{run.dataset}</td>
                  <td>{run.workspaceId}</td>
                  <td className="number">{run.questions}</td>
                  <td className="number">{percent(run.hitRate)}</td>
                  <td className="number">{score(run.mrr)}</td>
                  <td className="number">{percent(run.answerRecall)}</td>
                  <td className="number">{milliseconds(run.latencyP50Ms)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="quiet"
                      aria-pressed={run.id === chosen?.id}
                      aria-label={`Show ${run.id}`}
                      onClick={() => setChosenId(run.id)}
                    >
                      Show
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {chosen && <RunDetail run={chosen} previous={previous} />}
    </>
  );
}

function RunDetail({ run, previous }: { run: EvalRun; previous: EvalRun | null }) {
  const { apiKey } = useSession();
  const { data, error } = useGraphqlRead<{ evalRun: EvalRunDetail | null }>(apiKey, EVAL_RUN, { id: run.id });
  const detail = data?.evalRun ?? null;

  const rates: Bar[] = METRICS.filter((metric) => metric.kind !== 'ms').flatMap((metric) => {
    const value = metric.value(run);
    return value === null ? [] : [{ label: metric.name, value, text: shown(metric, value) }];
  });
  const latency: Bar[] = [
    { label: 'Total p50', value: run.latencyP50Ms, text: milliseconds(run.latencyP50Ms) },
    { label: 'Total p95', value: run.latencyP95Ms, text: milliseconds(run.latencyP95Ms) },
    // The top-level stages only: `retrieve.dense` and the like are parts of `retrieve`.
    ...(detail?.stages ?? [])
      .filter((stage) => !stage.stage.includes('.'))
      .map((stage) => ({
        label: `${stage.stage} p50`,
        value: stage.p50Ms,
        text: milliseconds(stage.p50Ms),
      })),
  ];
  const categories: Bar[] = (detail?.categories ?? []).flatMap((category) =>
    category.hitRate === null
      ? []
      : [{ label: category.category, value: category.hitRate, text: percent(category.hitRate) }],
  );
  return (
    <section aria-labelledby="run-heading" className="eval-run">
      <h2 id="run-heading">{run.id}</h2>
      <p className="muted">
        {run.dataset} · workspace {run.workspaceId} · {run.answerer} · {run.questions} questions (
        {run.answerable} answerable) · k={run.k} · {run.seconds.toFixed(1)} s · {run.refusedWhenRequired}/
        {run.refusalRequired} out-of-corpus refused, {run.falseRefusals} answerable refused
      </p>
      <ErrorMessage error={error} />
      <div className="charts">
        <BarChart title="Scores" bars={rates} max={1} />
        <BarChart title="Latency (ms)" bars={latency} max={Math.max(1, ...latency.map((bar) => bar.value))} />
        {categories.length > 0 && <BarChart title="Hit rate by category" bars={categories} max={1} />}
      </div>
      <h3>{previous ? `Compared with the run before (${previous.id})` : 'No earlier run to compare with'}</h3>
      {previous && (
        <div className="table-scroll">
          <table className="eval-compare">
            <ColumnHeads names={['Metric', 'This run', 'Before', 'Change']} />
            <tbody>
              {METRICS.map((metric) => (
                <tr key={metric.name}>
                  <th scope="row">{metric.name}</th>
                  <td className="number">{format(metric, metric.value(run))}</td>
                  <td className="number">{format(metric, metric.value(previous))}</td>
                  <Delta metric={metric} now={metric.value(run)} before={metric.value(previous)} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const format = (metric: Metric, value: number | null) => (value === null ? '–' : shown(metric, value));

/** The change as text (percentage points for rates), and whether it is better, for colour too. */
function Delta({ metric, now, before }: { metric: Metric; now: number | null; before: number | null }) {
  if (now === null || before === null) return <td className="number">–</td>;
  const change = now - before;
  const sign = change >= 0 ? '+' : '−';
  const text =
    metric.kind === 'rate'
      ? `${sign}${Math.abs(change * 100).toFixed(1)} pp`
      : metric.kind === 'score'
        ? `${sign}${Math.abs(change).toFixed(3)}`
        : `${sign}${Math.abs(change).toFixed(1)} ms`;
  // Half a point or half a millisecond is noise, not a change worth a word.
  const threshold = metric.kind === 'ms' ? 0.5 : 0.005;
  const better = metric.kind === 'ms' ? change < 0 : change > 0;
  const verdict = Math.abs(change) < threshold ? 'same' : better ? 'better' : 'worse';
  return (
    <td className={`number delta ${verdict}`}>
      {text} <span className="muted">({verdict})</span>
    </td>
  );
}
