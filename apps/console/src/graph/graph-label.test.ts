import { describe, expect, it } from 'vitest';
import { wrapLabel } from './graph-label.js';

describe('wrapLabel', () => {
  it.each([
    ['short', 'warranty', ['warranty']],
    ['wrapped between words', 'Zephyr widget warranty claims', ['Zephyr widget', 'warranty claims']],
    ['spaces tidied', '  two   words ', ['two words']],
    [
      'cut at a word, with an ellipsis, when longer than two lines',
      'the quick brown fox jumps over the lazy dog',
      ['the quick brown', 'fox jumps over…'],
    ],
    [
      'a word longer than a line cut after a slash',
      'POST /locations/{locationId}/items',
      ['POST /locations/', '{locationId}/items'],
    ],
    [
      'a word with no break cut at the line length',
      'Supercalifragilisticexpialidocious',
      ['Supercalifragilist', 'icexpialidocious'],
    ],
  ])('%s', (_, name, lines) => {
    expect(wrapLabel(name, 18, 2)).toEqual(lines);
  });

  it('keeps every line within the width', () => {
    for (const name of ['a'.repeat(60), 'word '.repeat(20), 'path/to/some/deeply/nested/file-name.md']) {
      for (const line of wrapLabel(name, 18, 2)) expect(line.length).toBeLessThanOrEqual(18);
    }
  });
});
