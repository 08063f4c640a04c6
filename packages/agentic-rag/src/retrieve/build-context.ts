import type { Config } from '../config/index.js';
import type { Sql } from '../db/index.js';
import type { Logger } from '../telemetry/index.js';
import { assembleContext, type KnowledgeContext } from './context.js';
import { expandReferences } from './references.js';
import type { RetrievalResult } from './retriever.js';

/**
 * The context an answer is written from: the retrieval's hits, then what they reference, within
 * the configured budgets. The reference expansion gets the share of the chunk budget the
 * primary hits can give up (RETRIEVAL_REFERENCE_SHARE) and RETRIEVAL_TIMEOUT_MS.
 */
export async function buildContext(
  sql: Sql,
  config: Config,
  workspaceId: string,
  result: RetrievalResult,
  logger?: Logger,
): Promise<KnowledgeContext> {
  const budget = {
    tokenLimit: config.CONTEXT_TOKEN_LIMIT,
    maxChunks: config.RETRIEVAL_MAX_TOTAL_CHUNKS,
    referenceShare: config.RETRIEVAL_REFERENCE_SHARE,
  };
  const expansion =
    config.RETRIEVAL_MAX_DEPTH > 0 && result.hits.length > 0
      ? await expandReferences(
          sql,
          workspaceId,
          result.hits,
          {
            maxDepth: config.RETRIEVAL_MAX_DEPTH,
            maxChunks: Math.floor(budget.maxChunks * budget.referenceShare),
            timeoutMs: config.RETRIEVAL_TIMEOUT_MS,
          },
          logger,
        )
      : null;
  return assembleContext(result, budget, expansion);
}
