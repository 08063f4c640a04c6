import { llmFollowUp, rewriteFollowUp, type ConversationTurn } from '../../conversation/index.js';
import { ErrorCode, toRagError } from '../../errors/index.js';
import type { Llm } from '../../llm/index.js';
import type { FollowUpRewrite } from '../types.js';

/**
 * The question made standalone against the conversation's earlier turns: by the model when one
 * is configured, by the deterministic rules otherwise, or when the model fails or replies with
 * something that is not a question (a warning says so).
 */
export async function resolveFollowUp(
  question: string,
  history: readonly ConversationTurn[],
  options: { llm: Llm | null; signal: AbortSignal | undefined; warnings: string[] },
): Promise<FollowUpRewrite> {
  if (options.llm) {
    try {
      const rewritten = await llmFollowUp(options.llm, question, history, options.signal);
      if (rewritten)
        return { standaloneQuery: rewritten.query, rewritten: rewritten.rewritten, rewriter: 'llm' };
      options.warnings.push('the LLM did not rewrite the follow-up; rewritten by rules');
    } catch (error) {
      const ragError = toRagError(error);
      if (ragError.code === ErrorCode.ABORTED) throw ragError;
      options.warnings.push(`LLM unavailable for the follow-up (${ragError.code}); rewritten by rules`);
    }
  }
  const rules = rewriteFollowUp(question, history);
  return { standaloneQuery: rules.query, rewritten: rules.rewritten, rewriter: 'rules' };
}
