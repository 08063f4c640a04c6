import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../errors/index.js';
import type { WriteDocumentResult } from '../store/index.js';
import { WriteBatcher } from './write-batcher.js';
import { input, recorder } from './write-recorder.test-support.js';

describe('WriteBatcher', () => {
  it('writes full batches as they fill, one at a time, and the rest on drain', async () => {
    const { write, batches, maxConcurrent } = recorder();
    const batcher = new WriteBatcher(write, { documents: 3, chunks: 100, parallel: 1 });
    const results: Array<Promise<WriteDocumentResult>> = [];
    for (let index = 0; index < 8; index++) {
      results.push(batcher.add(input(`d${index}`)));
      await batcher.room();
    }
    await batcher.drain();
    expect((await Promise.all(results)).every((result) => result.status === 'added')).toBe(true);
    expect(batches.flat()).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']);
    expect(batches.every((batch) => batch.length <= 3)).toBe(true);
    expect(batches.length).toBeLessThan(8);
    expect(maxConcurrent()).toBe(1);
  });

  it('writes up to `parallel` batches at once', async () => {
    const { write, batches, maxConcurrent } = recorder();
    const batcher = new WriteBatcher(write, { documents: 2, chunks: 100, parallel: 2 });
    const results: Array<Promise<WriteDocumentResult>> = [];
    for (let index = 0; index < 12; index++) {
      results.push(batcher.add(input(`d${index}`)));
      await batcher.room();
    }
    await batcher.drain();
    await Promise.all(results);
    expect(batches.flat().sort()).toEqual(Array.from({ length: 12 }, (_, index) => `d${index}`).sort());
    expect(maxConcurrent()).toBe(2);
  });

  it('closes a batch before it would pass the chunk limit', async () => {
    const { write, batches } = recorder();
    const batcher = new WriteBatcher(write, { documents: 100, chunks: 10, parallel: 1 });
    const written = [batcher.add(input('a', 6)), batcher.add(input('b', 6)), batcher.add(input('c', 3))];
    await batcher.drain();
    await Promise.all(written);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });

  it('writes a failed batch again one document at a time, so only the bad one fails', async () => {
    const bad = new RagError(ErrorCode.INVALID_INPUT, 'bad document');
    const { write, batches } = recorder((paths) => (paths.includes('bad') ? bad : null));
    const batcher = new WriteBatcher(write, { documents: 3, chunks: 100, parallel: 1 });
    const outcomes = await Promise.allSettled([
      batcher.add(input('a')),
      batcher.add(input('bad')),
      batcher.add(input('c')),
      batcher.drain(),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('fails the whole batch at once when the store is down, without retrying each document', async () => {
    const down = new RagError(ErrorCode.STORE_UNAVAILABLE, 'store down');
    const { write, batches } = recorder(() => down);
    const batcher = new WriteBatcher(write, { documents: 2, chunks: 100, parallel: 1 });
    const outcomes = await Promise.allSettled([batcher.add(input('a')), batcher.add(input('b'))]);
    await batcher.drain();
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(batches).toEqual([['a', 'b']]);
  });
});
