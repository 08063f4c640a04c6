import { describe, expect, it } from 'vitest';
import { SPAN_END, SPAN_START, withSpanSentinels } from './span-sentinels.js';

/** `«` and `»` in the Markdown give the span; in the result they show where the sentinels went. */
const place = (marked: string) => {
  const start = marked.indexOf('«');
  const end = marked.indexOf('»') - 1;
  const markdown = marked.replace(/[«»]/g, '');
  return withSpanSentinels(markdown, { start, end }).replaceAll(SPAN_START, '«').replaceAll(SPAN_END, '»');
};

describe('withSpanSentinels', () => {
  it.each([
    [
      'inside a paragraph, as given',
      'The warranty «lasts forty-two» months.',
      'The warranty «lasts forty-two» months.',
    ],
    ['after a heading’s #s', '«# Zephyr\n\nBody.»\n', '# «Zephyr\n\nBody.»\n'],
    ['after list markers and task boxes', '«- one\n- [ ] two»', '- «one\n- [ ] two»'],
    ['after quote markers and indentation', 'a\n\n«>  > quoted»', 'a\n\n>  > «quoted»'],
    [
      'after a table row’s pipes',
      '«| a | b |\n| --- | --- |\n| 1 | 2 |»',
      '| «a | b |\n| --- | --- |\n| 1 | 2 »|',
    ],
    ['inside a fence, not on its lines', '«```js\nconst x = 1;\n```»', '```js\n«const x = 1;»\n```'],
    ['inside code, as given', '```\n# not a «heading»\n```', '```\n# not a «heading»\n```'],
    [
      'off blank lines, rules and definitions',
      '«\n\n---\n[id]: http://x\nText.\n\n***»\n',
      '\n\n---\n[id]: http://x\n«Text.»\n\n***\n',
    ],
    ['inside underscore emphasis', '«_Note_: see _this_»', '_«Note_: see _this»_'],
    ['before a heading’s closing #s', '«## Title ##»', '## «Title» ##'],
    ['inside display math', '«$$\nx + 1\n$$»', '$$\n«x + 1»\n$$'],
    ['back from a setext underline', 'Intro «Title\n=====»', 'Intro «Title»\n====='],
  ])('%s', (_name, marked, expected) => {
    expect(place(marked)).toBe(expected);
  });

  it('adds nothing without a span or with nothing visible in it', () => {
    expect(withSpanSentinels('# Title', null)).toBe('# Title');
    expect(place('Text.\n\n«---»\n\nMore.')).toBe('Text.\n\n---\n\nMore.');
  });

  it('replaces sentinels the document already holds', () => {
    expect(withSpanSentinels(`a${SPAN_START}b${SPAN_END}`, null)).toBe('a\uFFFDb\uFFFD');
  });
});
