import type { Llm } from '@agentic-rag/core';
import type { JudgeScores } from './golden-score.js';

const MAX_SOURCE_CHARS = 1500;

/**
 * An LLM as judge (AGENTIC_RAG_ENABLE_LLM_JUDGE): faithfulness (are the answer's claims in the
 * cited sources?) and relevance (does it answer the question?), each 0–1. A reply that is not the
 * asked-for JSON is asked for once more, then the question goes unjudged rather than guessed.
 */
export class LlmJudge {
  constructor(private readonly llm: Llm) {}

  async judge(question: string, answer: string, sources: readonly string[]): Promise<JudgeScores | null> {
    const sourceText = sources
      .map((source, index) => `[${index + 1}] ${source.slice(0, MAX_SOURCE_CHARS)}`)
      .join('\n\n');
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await this.llm.complete({
        messages: [
          {
            role: 'system',
            content:
              'You grade the answers of a retrieval-augmented assistant. Reply with one JSON object and nothing else: ' +
              '{"faithfulness": number from 0 to 1 (the share of the answer\'s claims that the sources support), ' +
              '"relevance": number from 0 to 1 (how fully the answer addresses the question), "reason": one short sentence}.',
          },
          {
            role: 'user',
            content: `Question: ${question}\n\nSources:\n${sourceText || '(none)'}\n\nAnswer:\n${answer}`,
          },
        ],
        temperature: 0,
        maxTokens: 200,
        responseFormat: 'json',
      });
      const scores = parseScores(response.text);
      if (scores) return scores;
    }
    return null;
  }
}

/** The judge's JSON, tolerating a code fence around it; null when a score is missing or out of range. */
export function parseScores(text: string): JudgeScores | null {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return null;
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    const faithfulness = Number(value.faithfulness);
    const relevance = Number(value.relevance);
    const inRange = (score: number) => Number.isFinite(score) && score >= 0 && score <= 1;
    if (!inRange(faithfulness) || !inRange(relevance)) return null;
    return { faithfulness, relevance, reason: typeof value.reason === 'string' ? value.reason : '' };
  } catch {
    return null;
  }
}
