import { describe, expect, it } from 'vitest';
import type { Correction } from '../../understand/index.js';
import { source } from '../source-fixture.js';
import { evidence, unknownFocus, unknownNames } from './evidence.js';

const beliefs = source({
  sourceId: 'textbook/ch19-beliefs.md',
  title: 'Partially observable problems',
  text: '## 19.1 Belief initialization\n\nA POMDP agent keeps a belief state: a distribution over hidden states.',
});
const retries = source({
  sourceId: 'runbooks/carrier-api-outage.md',
  rank: 1,
  title: 'Carrier API outage',
  text: 'A cap limits the number of retries per job. Raise the cap only after the breaker closes.',
});
const calc = source({
  sourceId: 'tool:calc',
  chunkId: 'tool:calc#1',
  title: 'calc tool',
  text: '6 * 7 = 42',
  rank: -1,
  score: 1,
  origin: 'tool',
});

describe('evidence', () => {
  it('is the share of the question words the best source contains', () => {
    // pomdp, belief, state, updat: the chunk has three of the four.
    expect(evidence('How does a POMDP update its belief state?', [retries, beliefs])).toEqual({
      score: 0.75,
      best: beliefs,
    });
  });

  it('counts words found only in the title', () => {
    expect(evidence('partially observable belief', [retries, beliefs])).toEqual({
      score: 1,
      best: beliefs,
    });
  });

  it('keeps the first of equally good sources', () => {
    const copy = source({ ...beliefs, sourceId: 'textbook/copy.md', chunkId: 'copy#0' });
    expect(evidence('belief state', [beliefs, copy]).best).toBe(beliefs);
  });

  it('is 0 with no best source when nothing shares a word', () => {
    expect(evidence('What is the capital of France?', [beliefs, retries])).toEqual({
      score: 0,
      best: null,
    });
  });

  it('is 0 for a question without content words and for no sources', () => {
    expect(evidence('What is it?', [beliefs])).toEqual({ score: 0, best: null });
    expect(evidence('belief state', [])).toEqual({ score: 0, best: null });
  });

  it('does not ask a passage for the words that only name the kind of answer', () => {
    // "endpoint" and "call" say an operation is wanted; the focus is pomdp, belief, state.
    expect(evidence('Which endpoint do I call for the POMDP belief state?', [retries, beliefs])).toEqual({
      score: 1,
      best: beliefs,
    });
  });

  it.each([
    [
      'a question of two parts, joined by ", and what"',
      'How does a POMDP keep its belief, and what caps the retries?',
      1,
    ],
    ['two questions', 'How does a POMDP keep its belief? What caps the retries?', 1],
    // One question: two sources that each hold some of its words are not evidence together.
    ['one question', 'Does the POMDP belief cap the retries?', 0.5],
  ])('lets two sources cover %s', (_name, query, score) => {
    expect(evidence(query, [retries, beliefs]).score).toBe(score);
  });

  it('counts a tool result as full evidence, wherever it stands', () => {
    expect(evidence('What is 6 * 7?', [beliefs, calc])).toEqual({ score: 1, best: calc });
    expect(evidence('unrelated words entirely', [retries, calc])).toEqual({ score: 1, best: calc });
  });

  describe('typo corrections', () => {
    const pomp: Correction = { from: 'pomp', to: 'POMDP', similarity: 0.8, evidence: 3 };

    it('counts a misspelt word through its correction', () => {
      const query = 'What is a pomp belief state?';
      expect(evidence(query, [beliefs]).score).toBeCloseTo(2 / 3, 10);
      expect(evidence(query, [beliefs], [pomp])).toEqual({ score: 1, best: beliefs });
    });

    it('reads a correction as the words it corrects, whatever their inflection', () => {
      const capitals = source({ sourceId: 'geo.md', text: 'Paris is the capital of France.' });
      const correction: Correction = { from: 'capitl', to: 'capital', similarity: 0.86, evidence: 1 };
      expect(evidence('capitl of France', [capitals]).score).toBe(0.5);
      expect(evidence('capitl of France', [capitals], [correction]).score).toBe(1);
    });

    it('ignores a correction of a word the question does not contain', () => {
      expect(evidence('belief state', [beliefs], [pomp]).score).toBe(1);
      expect(evidence('retry policy', [beliefs], [pomp])).toEqual({ score: 0, best: null });
    });
  });
});

describe('unknownNames', () => {
  it('finds capitalised words and acronyms whose stem the workspace never saw', () => {
    expect(
      unknownNames('How does Northwind process GDPR right-to-erasure requests?', ['gdpr', 'erasur']),
    ).toEqual(['GDPR']);
    expect(unknownNames('Which Smagorinsky constant fits LES?', ['smagorinski'])).toEqual(['Smagorinsky']);
    expect(unknownNames('Give the Rauch-Tung-Striebel equations', ['rauch-tung-striebel', 'rauch'])).toEqual([
      'Rauch-Tung-Striebel',
    ]);
  });

  it('ignores lower-case unknown words, a capital that only starts the sentence, and known names', () => {
    expect(unknownNames('schedule a pickup for tomorrow morning', ['tomorrow'])).toEqual([]);
    expect(unknownNames('Wieght limits for parcels?', ['wieght'])).toEqual([]);
    expect(unknownNames('Hi there. Priya here: which endpoint?', ['priya'])).toEqual([]);
    expect(unknownNames('Which endpoint? Coursera asks.', ['coursera'])).toEqual([]);
    expect(unknownNames('Which POMDP solver is fastest?', [])).toEqual([]);
    expect(unknownNames('Which POMDP solver is fastest?', ['fastest'])).toEqual([]);
  });
});

describe('unknownFocus', () => {
  // Right: the Postgres lexemes of the question that no chunk of the workspace contains.
  it.each([
    ['What is the capital of France?', ['capit'], ['capital']],
    // A longer question: one unfamiliar word is a paraphrase the other words make up for.
    ['How do I nuke an old international shipment with a damaged customs label?', ['nuke'], []],
    ['How do I nuke a shipment?', ['nuke'], ['nuke']],
    // Nothing unknown, nothing to refuse.
    ['How do I cancel a shipment?', [], []],
  ])('%s (unknown %j) → %j', (query, unknownTerms, expected) => {
    expect(unknownFocus(query, unknownTerms)).toEqual(expected);
  });
});
