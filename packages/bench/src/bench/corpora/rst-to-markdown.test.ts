import { describe, expect, it } from 'vitest';
import { rstToMarkdown } from './rst-to-markdown.js';

describe('rstToMarkdown', () => {
  it.each([
    ['an underlined title', 'Title\n=====\n\nText.', '# Title\n\n\nText.', ['Title']],
    [
      'levels in order of first appearance',
      'One\n===\n\nTwo\n---\n\nThree\n=====\n',
      '# One\n\n\n## Two\n\n\n# Three\n\n',
      ['One', 'Two', 'Three'],
    ],
    [
      'an over- and underlined title is its own style',
      '=====\nTop\n=====\n\nSub\n===\n',
      '# Top\n\n\n## Sub\n\n',
      ['Top', 'Sub'],
    ],
    [
      'a short rule under text is not a heading',
      'A long line of text\n---\n',
      'A long line of text\n---\n',
      [],
    ],
    [
      'a literal block after "::" becomes fenced code',
      'Run this::\n\n\techo 1 >/proc/sys/kernel/sysrq\n\nThen more.',
      'Run this::\n\n```\necho 1 >/proc/sys/kernel/sysrq\n```\n\nThen more.',
      [],
    ],
  ])('%s', (_case, rst, markdown, headings) => {
    expect(rstToMarkdown(rst)).toEqual({ markdown, headings });
  });
});
