import { citationMarkers } from './stages/self-check.js';
import type { AnswerEventListener, Citation } from './answer-types.js';

export type { AnswerEvent, AnswerEventListener } from './answer-types.js';

// A piece ends with the whitespace after a sentence's end or a citation marker.
const PIECE_END = /(?<=[.!?\]])\s+/g;

/** The answer as pieces, sentence by sentence, that join back to it exactly. */
export function answerPieces(answer: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of answer.matchAll(PIECE_END)) {
    const end = match.index + match[0].length;
    pieces.push(answer.slice(start, end));
    start = end;
  }
  if (start < answer.length) pieces.push(answer.slice(start));
  return pieces;
}

/**
 * Reports a final answer: its pieces, each preceded by the citations it is the first to mark, and
 * then the citations no piece marks (every citation exactly once, in the final list's form).
 */
export function publishAnswer(
  answer: string,
  citations: readonly Citation[],
  emit: AnswerEventListener,
): void {
  const pending = new Map(citations.map((citation) => [citation.index, citation]));
  for (const text of answerPieces(answer)) {
    for (const index of citationMarkers(text)) {
      const citation = pending.get(index);
      if (!citation) continue;
      pending.delete(index);
      emit({ type: 'citation', citation });
    }
    emit({ type: 'delta', text });
  }
  for (const citation of pending.values()) emit({ type: 'citation', citation });
}
