import path from 'node:path';
import { type Config, createLlm, type Logger } from '@agentic-rag/core';
import {
  compareReports,
  GraphqlAnswerer,
  LibraryAnswerer,
  LlmJudge,
  loadGoldenDataset,
  loadGoldenReport,
  renderComparison,
  renderSummaryTable,
  runGolden,
  writeGoldenReport,
  type Answerer,
  type GoldenPass,
} from '../eval/index.js';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { EXIT } from '@agentic-rag/core/cli';
import { progressBars } from './cli-support.js';

export interface GoldenCommandOptions {
  dataset: string;
  workspace: string;
  endpoint: string | undefined;
  /** The key --endpoint asks with. */
  apiKey: string | undefined;
  corpus: string | undefined;
  ingest: boolean;
  k: number;
  warm: boolean;
  out: string;
  json: boolean;
}

/**
 * `rag:eval --dataset`: every golden question through `ragAnswer` (this process's library, or a
 * running API with --endpoint), scored, written as JSON + markdown + SVG, summarised. Exit 1 when
 * the endpoint precision target is missed or a question could not be answered at all.
 */
export async function goldenCommand(
  config: Config,
  logger: Logger,
  options: GoldenCommandOptions,
): Promise<number> {
  const entries = await loadGoldenDataset(options.dataset);
  const say = (line: string) => {
    if (!options.json) process.stderr.write(`${line}\n`);
  };
  let runtime: RagRuntime | null = null;
  try {
    let answerer: Answerer;
    let clearCache: (() => Promise<void>) | undefined;
    if (options.endpoint) {
      answerer = new GraphqlAnswerer(options.endpoint, fetch, 60_000, options.apiKey);
      say(
        `asking ${options.endpoint} (its own corpus and cache; a warm cache makes the first pass warm too)`,
      );
    } else {
      runtime = await createRuntime({ config, logger });
      const cache = runtime.cache;
      if (options.ingest) {
        const corpus = options.corpus ?? config.AGENTIC_RAG_CORPUS_DIR;
        const summary = await runtime.pipeline.ingestSources({
          workspaceId: options.workspace,
          sources: [corpus],
        });
        say(
          `corpus ${corpus} → workspace "${options.workspace}": ${summary.documents.added} added, ${summary.documents.updated} updated, ${summary.documents.unchanged} unchanged`,
        );
      }
      answerer = new LibraryAnswerer(runtime.orchestrator, runtime.retriever);
      if (cache) clearCache = async () => void (await cache.clear(options.workspace));
    }
    const llm = config.AGENTIC_RAG_ENABLE_LLM_JUDGE
      ? (runtime?.llm ??
        createLlm(config, {
          timeoutMs: config.RAG_LLM_TIMEOUT_MS,
          maxRetries: config.RAG_LLM_MAX_RETRIES,
          logger,
        }))
      : null;
    const report = await runGolden({
      dataset: path.relative(process.cwd(), path.resolve(options.dataset)) || options.dataset,
      entries,
      answerer,
      workspaceId: options.workspace,
      k: options.k,
      warmPass: options.warm,
      judge: llm ? new LlmJudge(llm) : null,
      ...(clearCache ? { clearCache } : {}),
      ...(options.json
        ? {}
        : {
            onProgress: progressBars((pass: GoldenPass) => `eval ${pass.padEnd(5)}`, 'questions'),
          }),
    });
    const files = await writeGoldenReport(report, options.out);
    if (options.json) console.log(JSON.stringify({ ...report, files }));
    else {
      console.log(`\n${renderSummaryTable(report)}\n`);
      console.log(`wrote ${files.json}\n      ${files.markdown}\n      ${files.svg}`);
    }
    const failed = report.results.some((result) => result.error !== null);
    return report.summary.endpointPrecision.met || report.summary.endpointPrecision.questions === 0
      ? failed
        ? EXIT.failed
        : EXIT.ok
      : EXIT.failed;
  } finally {
    await runtime?.close();
  }
}

/** `rag:eval --compare A.json B.json`: metric deltas and the questions whose outcome moved. */
export async function compareCommand(files: readonly string[], json: boolean): Promise<number> {
  const [before, after] = await Promise.all(files.map((file) => loadGoldenReport(file)));
  const comparison = compareReports(
    before!,
    after!,
    files.map((file) => path.basename(file, '.json')),
  );
  if (json) console.log(JSON.stringify(comparison));
  else console.log(renderComparison(comparison));
  return EXIT.ok;
}
