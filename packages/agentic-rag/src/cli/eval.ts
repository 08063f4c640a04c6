import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { EVAL_MODES, loadBeirDataset, runBeir, type BeirReport, type EvalMode } from '../eval/index.js';
import { createRuntime } from '../runtime/index.js';
import { assertWorkspaceId } from '../store/index.js';
import { cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';
import { ProgressBar } from './progress-bar.js';

const HELP = `Usage: pnpm rag:eval --beir DIR --workspace NAME [options]

Evaluates retrieval on a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv):
ingests the corpus into the workspace (unchanged records are skipped on a rerun), then runs every
judged query through each mode and prints nDCG@10, Recall@100, MRR@10 and per-query latency
p50/p95 side by side.

Options:
  --beir DIR          the dataset directory
  --workspace NAME    workspace to ingest into and search (use one per dataset)
  --split NAME        qrels file to use: qrels/NAME.tsv (default: test)
  --modes LIST        comma-separated subset of dense,lexical,graph,hybrid-no-graph,hybrid
                      (default: all five; hybrid is every channel, hybrid-no-graph drops the graph)
  --json              print the report as one JSON object on stdout
  -h, --help          show this help

The golden-set evaluation of answers (--dataset) is not implemented yet.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      beir: { type: 'string' },
      workspace: { type: 'string' },
      split: { type: 'string', default: 'test' },
      modes: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  if (!values.beir || !values.workspace) {
    throw new RagError(ErrorCode.INVALID_INPUT, '--beir DIR and --workspace NAME are required (see --help)');
  }
  assertWorkspaceId(values.workspace);
  const modes = (values.modes?.split(',') ?? [...EVAL_MODES]) as EvalMode[];
  const unknown = modes.filter((mode) => !EVAL_MODES.includes(mode));
  if (unknown.length > 0)
    throw new RagError(ErrorCode.INVALID_INPUT, `unknown mode(s): ${unknown.join(', ')}`);

  const config = cliConfig();
  const dataset = await loadBeirDataset(values.beir, values.split);
  const runtime = await createRuntime({
    config,
    logger: cliLogger(config, values.json ? 'quiet' : 'normal'),
  });
  try {
    const bars = new Map<EvalMode, ProgressBar>();
    const report = await runBeir({
      dataset,
      workspaceId: values.workspace,
      pipeline: runtime.pipeline,
      retriever: runtime.retriever,
      modes,
      ...(values.json
        ? {}
        : {
            onProgress: (mode: EvalMode, done: number, total: number) => {
              if (!bars.has(mode)) bars.set(mode, new ProgressBar({ label: `eval ${mode.padEnd(7)}` }));
              bars.get(mode)!.update(done, total, 'queries');
              if (done === total) bars.get(mode)!.finish();
            },
          }),
    });
    if (values.json) console.log(JSON.stringify(report));
    else printReport(report);
    return EXIT.ok;
  } finally {
    await runtime.close();
  }
}

function printReport(report: BeirReport): void {
  const { documents } = report.ingest;
  console.log(`\n${report.dataset} → workspace "${report.workspaceId}": ${report.queries} judged queries`);
  console.log(
    `ingest: ${documents.added} added, ${documents.updated} updated, ${documents.unchanged} unchanged (${report.ingest.chunks} chunks, ${report.ingest.seconds.toFixed(1)} s)`,
  );
  console.log('\nmode      nDCG@10  Recall@100  MRR@10  p50 ms  p95 ms');
  for (const mode of report.modes) {
    console.log(
      `${mode.mode.padEnd(8)}  ${mode.ndcgAt10.toFixed(4)}  ${mode.recallAt100.toFixed(4).padStart(10)}  ${mode.mrrAt10.toFixed(4)}  ${mode.latencyMs.p50.toFixed(1).padStart(6)}  ${mode.latencyMs.p95.toFixed(1).padStart(6)}`,
    );
  }
}

runCli(main);
