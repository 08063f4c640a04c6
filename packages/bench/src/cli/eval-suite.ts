import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '@agentic-rag/core';
import {
  API_SPEC_SETS,
  belowBaseline,
  lostRows,
  MANUAL_SETS,
  renderApiTable,
  renderManualTable,
  renderSuiteTable,
  runApiSpecs,
  runManuals,
  runSuite,
  SUITE_DATASETS,
  type ApiSpecRow,
  type EvalMode,
  type ManualRow,
  type SplitRole,
  type SuiteRow,
} from '../eval/index.js';
import { createRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, cliLogger, EXIT } from '@agentic-rag/core/cli';
import { progressBars } from './cli-support.js';

const SUITES = ['retrieval', 'api', 'manuals'] as const;
type Suite = (typeof SUITES)[number];

function list<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim());
  const unknown = items.filter((item) => !allowed.includes(item as T));
  if (unknown.length > 0)
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `${flag} takes ${allowed.join(', ')}; not ${unknown.join(', ')}`,
    );
  return items as T[];
}

/**
 * `pnpm rag:eval` with no dataset: the retrieval suite (nDCG@10 per channel and the fusion), the
 * API questions (operation first?) and the manual questions (facts in the answer?), each with its
 * plain baseline from the same run. Exit 1 when the fusion loses to a channel or the system to
 * the baseline on any row.
 */
export async function suiteCommand(
  modes: EvalMode[],
  splitList: string | undefined,
  json: boolean,
  options: { suites: string | undefined; only: string | undefined; out: string },
): Promise<number> {
  const splits = list<SplitRole>(splitList, ['dev', 'test'], '--splits') ?? ['dev', 'test'];
  const suites = list<Suite>(options.suites, SUITES, '--suites') ?? [...SUITES];
  const names = [
    ...SUITE_DATASETS.map((dataset) => dataset.name),
    ...API_SPEC_SETS.map((set) => set.name),
    ...MANUAL_SETS.map((set) => set.name),
  ];
  const only = list(options.only, names, '--only');
  const chosen = <T extends { name: string }>(sets: readonly T[]) =>
    only ? sets.filter((set) => only.includes(set.name)) : sets;
  const config = cliConfig();
  const runtime = await createRuntime({ config, logger: cliLogger(config, json ? 'quiet' : 'normal') });
  const bars = progressBars((label: string) => label, 'questions');
  const onProgress = (label: string, done: number, total: number) => {
    if (!json) bars(label, done, total);
  };
  const onSkip = (name: string, reason: string) => console.error(`skipped ${name}: ${reason}`);
  const onPhase = (line: string) => {
    if (!json) console.error(line);
  };
  onPhase(
    `rag:eval: ${[
      suites.includes('retrieval') &&
        `retrieval (${chosen(SUITE_DATASETS)
          .map((set) => set.name)
          .join(', ')})`,
      suites.includes('api') &&
        `api (${chosen(API_SPEC_SETS)
          .map((set) => set.name)
          .join(', ')})`,
      suites.includes('manuals') &&
        `manuals (${chosen(MANUAL_SETS)
          .map((set) => set.name)
          .join(', ')})`,
    ]
      .filter(Boolean)
      .join(', ')}; splits ${splits.join(', ')}. Each corpus is ingested first (a first run takes ` +
      'minutes; unchanged documents are skipped after that), then its questions are asked.',
  );
  const root = process.cwd();
  try {
    let retrieval: SuiteRow[] = [];
    let api: ApiSpecRow[] = [];
    let manuals: ManualRow[] = [];
    const deps = {
      pipeline: runtime.pipeline,
      retriever: runtime.retriever,
      orchestrator: runtime.orchestrator,
      clearCache: async (workspaceId: string) => void (await runtime.cache?.clear(workspaceId)),
      onProgress,
      onPhase,
      onSkip,
    };
    if (suites.includes('retrieval'))
      retrieval = await runSuite({
        root,
        datasets: chosen(SUITE_DATASETS),
        pipeline: runtime.pipeline,
        retriever: runtime.retriever,
        modes,
        splits,
        onProgress,
        onPhase,
        onSkip: (dataset, reason) => onSkip(dataset.name, reason),
      });
    if (suites.includes('api')) api = await runApiSpecs(root, chosen(API_SPEC_SETS), splits, deps);
    if (suites.includes('manuals'))
      manuals = await runManuals(
        root,
        chosen(MANUAL_SETS),
        splits,
        path.join(root, 'eval', '.cache', 'manuals'),
        deps,
      );
    const lost = lostRows(retrieval);
    const below = belowBaseline(api, manuals);
    await mkdir(options.out, { recursive: true });
    const file = path.join(options.out, `answer-sets-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await writeFile(file, `${JSON.stringify({ retrieval, api, manuals }, null, 2)}\n`);
    if (json) {
      console.log(
        JSON.stringify({
          rows: retrieval,
          api,
          manuals,
          lost: lost.map((row) => `${row.dataset}/${row.split}`),
          below,
          file,
        }),
      );
    } else {
      if (retrieval.length > 0) {
        console.log(`\nnDCG@10 per dataset, split and mode (hybrid = every channel, fused and reranked)\n`);
        console.log(renderSuiteTable(retrieval, modes));
      }
      if (api.length > 0) {
        console.log(
          '\nAPI questions: the asked-for operation in search (P@1, P@3, hit@3, MRR@10), cited first by ragAnswer, and a BM25 index of one document per operation\n',
        );
        console.log(renderApiTable(api));
      }
      if (manuals.length > 0) {
        console.log(
          "\nManual questions: the facts in ragAnswer's text, the right page first in search against a BM25 page index, refusals\n",
        );
        console.log(renderManualTable(manuals));
      }
      if (retrieval.length > 0)
        console.log(
          lost.length === 0
            ? `\nthe hybrid matched or beat its best single channel on all ${retrieval.length} retrieval rows`
            : `\nthe hybrid LOST to a single channel on ${lost.map((row) => `${row.dataset}/${row.split} (${row.best.mode} ${row.best.ndcgAt10.toFixed(4)})`).join(', ')}`,
        );
      if (api.length + manuals.length > 0)
        console.log(
          below.length === 0
            ? `the system matched or beat the BM25 baseline on all ${api.length + manuals.length} answer rows`
            : `the system is BELOW the BM25 baseline on ${below.join(', ')}`,
        );
      console.log(`per-question results: ${file}`);
    }
    return lost.length === 0 && below.length === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    await runtime.close();
  }
}
