import { describe, expect, it } from 'vitest';
import { answerPieces, publishAnswer, type AnswerEvent } from './events.js';
import type { Citation } from './types.js';

const citation = (index: number): Citation => ({
  index,
  sourceId: `doc-${index}.md`,
  chunkId: `chunk-${index}`,
  title: null,
  url: null,
  snippet: `snippet ${index}`,
  startOffset: 0,
  endOffset: 10,
  score: 1,
  pageNumber: null,
});

describe('answerPieces', () => {
  it.each([
    ['One. Two! Three?', ['One. ', 'Two! ', 'Three?']],
    [
      'POST /locations [1]. Body [2].\n\n```json\n{}\n```',
      ['POST /locations [1]. ', 'Body [2].\n\n', '```json\n{}\n```'],
    ],
    ['Not found in the knowledge base.', ['Not found in the knowledge base.']],
    ['', []],
  ])('cuts %j into pieces that join back to it', (answer, pieces) => {
    expect(answerPieces(answer)).toEqual(pieces);
    expect(answerPieces(answer).join('')).toBe(answer);
  });
});

describe('publishAnswer', () => {
  it('sends each citation once, before the first piece that marks it, and unmarked ones last', () => {
    const events: AnswerEvent[] = [];
    publishAnswer('A [2]. B [1][2]. C.', [citation(1), citation(2), citation(3)], (event) =>
      events.push(event),
    );
    expect(
      events.map((event) =>
        event.type === 'delta' ? event.text : event.type === 'citation' ? event.citation.index : event.type,
      ),
    ).toEqual([2, 'A [2]. ', 1, 'B [1][2]. ', 'C.', 3]);
  });
});
