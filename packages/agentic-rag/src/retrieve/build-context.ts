import type { Config } from '../config/index.js';
import type { ChunkReader } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { assembleContext, type KnowledgeContext } from './context.js';
import { expandReferences } from './references.js';
import type { RetrievalResult } from './types.js';

/** The configuration the context stage reads (the Knowledge Retriever's switches). */
export type ContextConfig = Pick<
  Config,
  | 'CONTEXT_TOKEN_LIMIT'
  | 'RETRIEVAL_MAX_TOTAL_CHUNKS'
  | 'RETRIEVAL_MAX_PRIMARY_RESULTS'
  | 'RETRIEVAL_REFERENCE_SHARE'
  | 'RETRIEVAL_MAX_DEPTH'
  | 'RETRIEVAL_TIMEOUT_MS'
  | 'CONTEXT_PRIORITIZE_PRIMARY'
  | 'BATCH_REFERENCE_LOOKUP'
  | 'LOG_RETRIEVAL_STATS'
>;

/**
 * The context an answer is written from: the retrieval's best RETRIEVAL_MAX_PRIMARY_RESULTS hits,
 * then what they reference, within the configured budgets. The reference expansion gets the share
 * of the chunk budget the primary hits can give up (RETRIEVAL_REFERENCE_SHARE) and
 * RETRIEVAL_TIMEOUT_MS. With LOG_RETRIEVAL_STATS one `retrieval-stats` line records what it took.
 */
export async function buildContext(
  chunks: ChunkReader,
  config: ContextConfig,
  workspaceId: string,
  result: RetrievalResult,
  logger: Logger = silentLogger,
): Promise<KnowledgeContext> {
  const started = performance.now();
  const budget = {
    tokenLimit: config.CONTEXT_TOKEN_LIMIT,
    maxChunks: config.RETRIEVAL_MAX_TOTAL_CHUNKS,
    referenceShare: config.RETRIEVAL_REFERENCE_SHARE,
    maxPrimary: config.RETRIEVAL_MAX_PRIMARY_RESULTS,
    prioritizePrimary: config.CONTEXT_PRIORITIZE_PRIMARY,
  };
  const primary = result.hits.slice(0, budget.maxPrimary);
  const expansion =
    config.RETRIEVAL_MAX_DEPTH > 0 && primary.length > 0
      ? await expandReferences(
          chunks,
          workspaceId,
          primary,
          {
            maxDepth: config.RETRIEVAL_MAX_DEPTH,
            // Scored alone, references may take any slot a hit does not.
            maxChunks: Math.floor(budget.maxChunks * (budget.prioritizePrimary ? budget.referenceShare : 1)),
            timeoutMs: config.RETRIEVAL_TIMEOUT_MS,
            batch: config.BATCH_REFERENCE_LOOKUP,
          },
          logger,
        )
      : null;
  const context = assembleContext(result, budget, expansion);
  if (config.LOG_RETRIEVAL_STATS) {
    const references = context.stats.references;
    logger.info('retrieval stats', {
      event: 'retrieval-stats',
      workspaceId,
      primaryChunks: context.primary.length,
      referencedChunks: context.references.length,
      totalTokens: context.totalTokens,
      candidates: context.stats.candidates,
      intent: result.intent.kind,
      narrowedTo: result.intent.narrowedTo,
      depth: references?.depth ?? 0,
      visited: references?.visited ?? 0,
      revisited: references?.revisited ?? 0,
      missing: references?.missing.length ?? 0,
      lookups: references?.lookups ?? 0,
      limitsHit: context.stats.limitsHit,
      timedOut: context.stats.partial,
      stages: context.stats.stages,
      expansionMs: references?.ms ?? 0,
      contextMs: Number((performance.now() - started).toFixed(2)),
    });
  }
  return context;
}
