import type { Source } from './answer-types.js';

/** A retrieved chunk for the stage tests: the fields a test does not care about get defaults. */
export function source(fields: Partial<Source> & Pick<Source, 'sourceId' | 'text'>): Source {
  return {
    chunkId: `${fields.sourceId}#0`,
    title: null,
    url: null,
    startOffset: 0,
    endOffset: fields.text.length,
    score: 0.5,
    rank: 0,
    origin: 'primary',
    ...fields,
  };
}
