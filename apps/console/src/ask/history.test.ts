import { describe, expect, it } from 'vitest';
import type { Citation } from '../api/types.js';
import {
  answerWithSources,
  appendTurn,
  clearHistory,
  findThread,
  listThreads,
  MAX_THREADS,
  type Turn,
} from './history.js';

/** A real Storage's behaviour over a Map: what localStorage does, in a test without a browser. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const citation = (index: number, extra: Partial<Citation> = {}): Citation => ({
  index,
  sourceId: `docs/${index}.md`,
  chunkId: `c${index}`,
  title: `Doc ${index}`,
  url: null,
  snippet: 'a passage',
  startOffset: 0,
  endOffset: 9,
  score: 0.5,
  pageNumber: null,
  ...extra,
});

const turn = (question: string): Turn => ({
  question,
  answer: `About ${question} [1].`,
  citations: [citation(1)],
  refused: false,
  selfCheck: { passed: true, citationCoverage: 1, warnings: [] },
  standaloneQuery: null,
});

describe('the question history', () => {
  it('keeps threads per workspace, newest first, with their turns and the API conversation', () => {
    const storage = new MemoryStorage();
    appendTurn(storage, 'demo', 't1', 'conv-1', turn('first'));
    appendTurn(storage, 'demo', 't2', 'conv-2', turn('second'));
    appendTurn(storage, 'other', 't3', null, turn('elsewhere'));
    appendTurn(storage, 'demo', 't1', null, turn('follow-up'));
    const threads = listThreads(storage, 'demo');
    expect(threads.map((thread) => thread.id)).toEqual(['t1', 't2']);
    expect(threads[0]!.turns.map((kept) => kept.question)).toEqual(['first', 'follow-up']);
    // A follow-up that came back without an id keeps the conversation it continued.
    expect(findThread(storage, 'demo', 't1')!.conversationId).toBe('conv-1');
    expect(findThread(storage, 'demo', 't3')).toBeNull();
    expect(listThreads(storage, 'other')).toHaveLength(1);
  });

  it('drops the oldest threads past the limit, reads damage as empty, and forgets all on sign-out', () => {
    const storage = new MemoryStorage();
    for (let index = 0; index <= MAX_THREADS; index += 1)
      appendTurn(storage, 'demo', `t${index}`, null, turn(`q${index}`));
    const threads = listThreads(storage, 'demo');
    expect(threads).toHaveLength(MAX_THREADS);
    expect(threads.at(-1)!.id).toBe('t1');
    storage.setItem('agentic-rag.history.broken', '{not json');
    expect(listThreads(storage, 'broken')).toEqual([]);
    storage.setItem('agentic-rag.apiKey', 'kept');
    clearHistory(storage);
    expect(listThreads(storage, 'demo')).toEqual([]);
    expect(storage.getItem('agentic-rag.apiKey')).toBe('kept');
  });

  it('copies an answer with its numbered sources, pages and links', () => {
    const text = answerWithSources({
      answer: 'Use POST /locations [1], see the manual [2].\n',
      citations: [
        citation(2, { title: 'Manual', sourceId: 'manual.pdf', pageNumber: 7 }),
        citation(1, {
          title: 'guides/locations.md',
          sourceId: 'guides/locations.md',
          url: 'https://x.test/l',
        }),
      ],
    });
    expect(text).toBe(
      'Use POST /locations [1], see the manual [2].\n\nSources:\n' +
        '[1] guides/locations.md <https://x.test/l>\n[2] Manual, manual.pdf, page 7\n',
    );
    expect(answerWithSources({ answer: 'Nothing covers it.', citations: [] })).toBe('Nothing covers it.\n');
  });
});
