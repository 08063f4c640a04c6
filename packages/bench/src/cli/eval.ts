import { parseArgs } from 'node:util';
import { assertWorkspaceId, ErrorCode, RagError } from '@agentic-rag/core';
import { EVAL_MODES, loadBeirDataset, runBeir, type BeirReport, type EvalMode } from '../eval/index.js';
import { createRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, cliLogger, EXIT, runCli } from '@agentic-rag/core/cli';
import { progressBars } from './cli-support.js';
import { compareCommand, goldenCommand } from './eval-golden.js';
import { suiteCommand } from './eval-suite.js';

const HELP = `Usage: pnpm rag:eval [--suites LIST] [--splits dev,test] [--only NAMES] [--modes LIST]
       pnpm rag:eval --dataset FILE [options]
       pnpm rag:eval --compare A.json B.json
       pnpm rag:eval --beir DIR --workspace NAME [options]

With no dataset named, three suites (--suites to choose), each beside a plain baseline run now:
- retrieval: every BEIR-format dataset (the sample fixture, the PostgreSQL and Python manuals in
  eval/datasets/), each split, each channel alone and the fusion, in one table of nDCG@10;
- api: questions about real API descriptions (eval/datasets/api-specs/, fetched by
  pnpm eval:fetch-specs): is the asked-for operation first in search (P@1, P@3, hit@3, MRR) and
  cited first by ragAnswer, against a BM25 index of one document per operation (MiniSearch);
- manuals: questions about Debian's PostgreSQL reference and Python library pages (the packages
  must be installed): does ragAnswer's text hold the facts, is the right page first in search
  (against a BM25 page index), are the unanswerable questions refused.
Exit 1 when the hybrid scores below its best single channel, or the system below the baseline,
on any row. Per-question results go to <out>/answer-sets-<time>.json.

--dataset: every question of a golden set (JSON lines, see eval/agentic-rag/README.md) through
ragAnswer, in this process (the corpus is ingested first; unchanged files are skipped) or, with
--endpoint, through a running API. A cold pass (the workspace's answer cache emptied first) is
scored: hit rate@k and MRR against the expected documents, answer recall of the expected facts,
citation coverage and precision, refusal correctness, endpoint precision@1 of the precision set
(target 90%), per-stage latency p50/p95; a warm pass asks again to measure the cache; with
AGENTIC_RAG_ENABLE_LLM_JUDGE=true a model scores faithfulness and relevance. Writes
<out>/golden-<time>.json, .md and .svg and prints a summary. Exit 1 when the endpoint precision
target is missed or a question failed.

--compare: two --dataset results side by side, per metric and per question.

--beir: retrieval alone on a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv):
ingests the corpus into the workspace, then runs every judged query through each mode and prints
nDCG@10, Recall@100, MRR@10 and per-query latency p50/p95 side by side.

Options:
  --dataset FILE      the golden set, e.g. eval/agentic-rag/golden.jsonl
  --endpoint URL      ask a running API (http://host:port/graphql) instead of this process
  --api-key KEY       the key --endpoint asks with (default: AGENTIC_RAG_API_KEY); it needs read
                      access to the workspace. A refused key stops the run with UNAUTHENTICATED
  --corpus DIR        what to ingest before a library run (default AGENTIC_RAG_CORPUS_DIR)
  --no-ingest         do not ingest first: the workspace already holds the corpus
  --k N               ragAnswer's topK, and the cutoff of hit rate and MRR (default 10)
  --no-warm           skip the second (cache) pass
  --out DIR           where results go (default eval/results)
  --compare A B       compare two result files
  --beir DIR          the BEIR dataset directory
  --workspace NAME    workspace (default AGENTIC_RAG_WORKSPACE for --dataset; required for --beir)
  --split NAME        BEIR qrels file to use: qrels/NAME.tsv (default: test)
  --splits LIST       suite: only these splits (dev, test; default both)
  --suites LIST       suite: any of retrieval,api,manuals (default all three)
  --only NAMES        suite: only these specs or manuals (e.g. stripe,postgres-reference)
  --modes LIST        BEIR: comma-separated subset of dense,lexical,graph,hybrid-no-graph,hybrid
  --json              print the report as one JSON object on stdout
  -h, --help          show this help`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      beir: { type: 'string' },
      dataset: { type: 'string' },
      endpoint: { type: 'string' },
      'api-key': { type: 'string' },
      corpus: { type: 'string' },
      'no-ingest': { type: 'boolean', default: false },
      k: { type: 'string', default: '10' },
      'no-warm': { type: 'boolean', default: false },
      out: { type: 'string', default: 'eval/results' },
      compare: { type: 'boolean', default: false },
      workspace: { type: 'string' },
      split: { type: 'string', default: 'test' },
      splits: { type: 'string' },
      suites: { type: 'string' },
      only: { type: 'string' },
      modes: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  if (values.compare) {
    if (positionals.length !== 2)
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        '--compare needs two result files: --compare A.json B.json',
      );
    return compareCommand(positionals, values.json);
  }
  if (values.dataset) {
    const config = cliConfig();
    const workspace = values.workspace ?? config.AGENTIC_RAG_WORKSPACE;
    assertWorkspaceId(workspace);
    const k = Number(values.k);
    if (!Number.isInteger(k) || k < 1 || k > 50)
      throw new RagError(ErrorCode.INVALID_INPUT, '--k must be an integer from 1 to 50');
    return goldenCommand(config, cliLogger(config, values.json ? 'quiet' : 'normal'), {
      dataset: values.dataset,
      workspace,
      endpoint: values.endpoint,
      apiKey: values['api-key'] ?? config.AGENTIC_RAG_API_KEY,
      corpus: values.corpus,
      ingest: !values['no-ingest'],
      k,
      warm: !values['no-warm'],
      out: values.out,
      json: values.json,
    });
  }
  const modes = (values.modes?.split(',') ?? [...EVAL_MODES]) as EvalMode[];
  const unknown = modes.filter((mode) => !EVAL_MODES.includes(mode));
  if (unknown.length > 0)
    throw new RagError(ErrorCode.INVALID_INPUT, `unknown mode(s): ${unknown.join(', ')}`);
  if (!values.beir)
    return suiteCommand(modes, values.splits, values.json, {
      suites: values.suites,
      only: values.only,
      out: values.out,
    });
  if (!values.workspace) {
    throw new RagError(ErrorCode.INVALID_INPUT, '--beir DIR needs --workspace NAME (see --help)');
  }
  assertWorkspaceId(values.workspace);

  const config = cliConfig();
  const dataset = await loadBeirDataset(values.beir, values.split);
  const runtime = await createRuntime({
    config,
    logger: cliLogger(config, values.json ? 'quiet' : 'normal'),
  });
  try {
    const report = await runBeir({
      dataset,
      workspaceId: values.workspace,
      pipeline: runtime.pipeline,
      retriever: runtime.retriever,
      modes,
      ...(values.json
        ? {}
        : {
            onProgress: progressBars((mode: EvalMode) => `eval ${mode.padEnd(7)}`, 'queries'),
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
