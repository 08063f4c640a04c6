import { describe, expect, it } from 'vitest';
import { parseDocumentId } from './entities.js';

describe('parseDocumentId', () => {
  it.each([
    ['algorithm_3_2', 'Algorithm:3.2'],
    ['formula_16_4', 'Formula:16.4'],
    ['table_A_1', 'Table:A.1'],
    ['section_3_1_2', 'Section:3.1.2'],
    ['chapter_3', 'Chapter:3'],
    ['appendix_A', 'Appendix:A'],
    // The form answered before, the REST contract's own abbreviation, mixed separators and case.
    ['algorithm:3.2', 'Algorithm:3.2'],
    ['algo_4_1', 'Algorithm:4.1'],
    ['eq_7_5', 'Formula:7.5'],
    ['fig_9_3', 'Figure:9.3'],
    ['algorithm_3.2', 'Algorithm:3.2'],
    ['Table_a_1', 'Table:A.1'],
  ])('reads %s as the graph key %s', (id, key) => {
    expect(parseDocumentId(id)).toEqual({ kind: 'entity', key });
  });

  it('reads 32 hex digits as a chunk id', () => {
    const chunkId = '0123456789abcdef0123456789abcdef';
    expect(parseDocumentId(chunkId)).toEqual({ kind: 'chunk', chunkId });
  });

  it.each([
    'algorithm 3.2',
    'algorithm_',
    'lemma_3_2',
    'ex_3_2',
    'algorithm_3_',
    'algorithm_AB_1',
    '',
    'x'.repeat(32),
  ])('refuses %j', (id) => {
    expect(parseDocumentId(id)).toBeNull();
  });
});
