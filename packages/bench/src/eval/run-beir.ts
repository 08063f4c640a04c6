import type { HybridRetriever, IngestPipeline, IngestSummary, RetrieveOptions } from '@agentic-rag/core';
import type { BeirDataset } from './beir-dataset.js';
import { mean, mrrAt, ndcgAt, percentile, recallAt } from './metrics.js';

export type EvalMode = 'dense' | 'lexical' | 'graph' | 'hybrid-no-graph' | 'hybrid';
export const EVAL_MODES: readonly EvalMode[] = ['dense', 'lexical', 'graph', 'hybrid-no-graph', 'hybrid'];

/** How each mode calls the retriever: one channel alone without rerank, or the full pipeline. */
const MODE_OPTIONS: Record<EvalMode, Pick<RetrieveOptions, 'channels' | 'rerank'>> = {
  dense: { channels: ['vector'], rerank: false },
  lexical: { channels: ['lexical'], rerank: false },
  graph: { channels: ['graph'], rerank: false },
  // The same pipeline without the graph channel: what the graph adds, measured in one run.
  'hybrid-no-graph': { channels: ['vector', 'lexical'], rerank: true },
  hybrid: { channels: ['vector', 'lexical', 'graph'], rerank: true },
};

export interface ModeReport {
  mode: EvalMode;
  queries: number;
  ndcgAt10: number;
  recallAt100: number;
  mrrAt10: number;
  latencyMs: { p50: number; p95: number };
}

export interface BeirReport {
  dataset: string;
  workspaceId: string;
  queries: number;
  ingest: Pick<IngestSummary, 'documents' | 'chunks' | 'seconds'>;
  modes: ModeReport[];
}

export interface RunBeirOptions {
  dataset: BeirDataset;
  workspaceId: string;
  pipeline: IngestPipeline;
  retriever: HybridRetriever;
  modes?: readonly EvalMode[];
  onProgress?: (mode: EvalMode, done: number, total: number) => void;
  /** Called once the corpus is in, before the first query. */
  onIngested?: (summary: IngestSummary) => void;
  signal?: AbortSignal;
}

/**
 * Documents are judged, chunks are retrieved: a document counts at the rank of its best chunk.
 * A record's source path is `<corpus file>#<_id>`; the id starts after the first `#`, because ids
 * may contain `#` themselves (`sql-createtable#sql-createtable-compatibility`).
 */
function rankedDocuments(sourcePaths: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const sourcePath of sourcePaths) {
    const id = sourcePath.slice(sourcePath.indexOf('#') + 1);
    seen.add(id);
  }
  return [...seen];
}

/**
 * Ingests the dataset's corpus (each record its own document, unchanged ones skipped on a rerun)
 * and scores every query in each mode: nDCG@10, Recall@100, MRR@10 and latency percentiles.
 */
export async function runBeir(options: RunBeirOptions): Promise<BeirReport> {
  const summary = await options.pipeline.ingestSources({
    workspaceId: options.workspaceId,
    sources: [options.dataset.corpusFile],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (summary.failures.length > 0) {
    throw new Error(
      `corpus.jsonl did not ingest cleanly: ${summary.failures.length} failures, first: ${summary.failures[0]!.message}`,
    );
  }
  options.onIngested?.(summary);
  const modes: ModeReport[] = [];
  for (const mode of options.modes ?? EVAL_MODES) {
    const ndcg: number[] = [];
    const recall: number[] = [];
    const mrr: number[] = [];
    const latencies: number[] = [];
    for (const [index, query] of options.dataset.queries.entries()) {
      const started = performance.now();
      const result = await options.retriever.retrieve({
        workspaceId: options.workspaceId,
        query: query.text,
        k: 100,
        candidates: 100,
        ...MODE_OPTIONS[mode],
        ...(options.signal ? { signal: options.signal } : {}),
      });
      latencies.push(performance.now() - started);
      const ranked = rankedDocuments(result.hits.map((hit) => hit.sourcePath));
      const judgments = options.dataset.qrels.get(query.id)!;
      ndcg.push(ndcgAt(ranked, judgments, 10));
      recall.push(recallAt(ranked, judgments, 100));
      mrr.push(mrrAt(ranked, judgments, 10));
      options.onProgress?.(mode, index + 1, options.dataset.queries.length);
    }
    modes.push({
      mode,
      queries: options.dataset.queries.length,
      ndcgAt10: mean(ndcg),
      recallAt100: mean(recall),
      mrrAt10: mean(mrr),
      latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
    });
  }
  return {
    dataset: options.dataset.directory,
    workspaceId: options.workspaceId,
    queries: options.dataset.queries.length,
    ingest: { documents: summary.documents, chunks: summary.chunks, seconds: summary.seconds },
    modes,
  };
}
