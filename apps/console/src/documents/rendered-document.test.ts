import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { documentSegments, joinSegments } from './document-text.js';
import { RenderedDocument } from './RenderedDocument.js';
import { withSpanSentinels } from './span-sentinels.js';

/** `«` and `»` give the cited span in the Markdown, as the viewer gets it from a citation. */
const render = (marked: string, math = true) => {
  const start = marked.indexOf('«');
  const span = start < 0 ? null : { start, end: marked.indexOf('»') - 1 };
  const markdown = withSpanSentinels(marked.replace(/[«»]/g, ''), span);
  const html = renderToStaticMarkup(createElement(RenderedDocument, { markdown, math }));
  expect(html).not.toMatch(/[\uE000\uE001]|%EE%80%8[01]/i);
  return html;
};

const marks = (html: string) => [...html.matchAll(/<mark>([\s\S]*?)<\/mark>/g)].map((match) => match[1]);

describe('RenderedDocument', () => {
  it('renders Markdown, its headings under the viewer’s, and raw HTML as text', () => {
    const html = render('# Guide\n\nThe **pump** runs.\n\n- one\n\n<script>alert(1)</script>');
    expect(html).toContain('<h3>Guide</h3>');
    expect(html).toContain('<strong>pump</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<mark');
  });

  it('marks a cited chunk of whole blocks as one block mark, its first mark holding the text', () => {
    const html = render(
      '«# Zephyr widget care\n\nThe Zephyr widget warranty lasts forty-two months.\n\n## Cleaning\n\nWipe it dry.»\n',
    );
    expect(html).toMatch(
      /^<mark class="cited-block"><h3>Zephyr widget care<\/h3>\n<p>The Zephyr widget warranty lasts forty-two months.<\/p>[\s\S]*<p>Wipe it dry.<\/p><\/mark>$/,
    );
    expect(html.match(/<mark/g)).toHaveLength(1);
  });

  it('marks a chunk as the API sends it (code points) the same way, from the chunks to the markup', () => {
    const text = '# Zephyr ✦ care\n\nThe 𝒵ephyr warranty lasts forty-two months.';
    const chunk = { index: 0, text, startOffset: 0, endOffset: Array.from(text).length, sectionPath: '' };
    const joined = joinSegments(documentSegments([chunk], { start: 0, end: chunk.endOffset }));
    const markdown = withSpanSentinels(joined.text, joined.span);
    const html = renderToStaticMarkup(createElement(RenderedDocument, { markdown, math: true }));
    expect(html).toBe(
      '<mark class="cited-block"><h3>Zephyr ✦ care</h3>\n<p>The 𝒵ephyr warranty lasts forty-two months.</p></mark>',
    );
  });

  it('marks the text pieces of a span that starts and ends inside blocks', () => {
    const html = render('Intro. «Cited *words*.\n\n- first\n- sec»ond\n\nAfter.');
    expect(marks(html)).toEqual(['Cited ', 'words', '.', 'first', 'sec']);
    expect(html).toContain('<p>Intro. <mark>Cited </mark><em><mark>words</mark></em><mark>.</mark></p>');
    expect(html).toContain('<li><mark>sec</mark>ond</li>');
    expect(html).toContain('<p>After.</p>');
  });

  it('marks inside highlighted code and table cells', () => {
    const html = render('```js\nconst «x = "a";\n```\n\n| a | b |\n| --- | --- |\n| 1 | t»wo |\n\nEnd.');
    expect(html).toContain('<span class="hljs-keyword">const</span> <mark>x = </mark>');
    expect(html).toContain('<span class="hljs-string"><mark>&quot;a&quot;</mark></span>');
    expect(html).toContain('<td><mark>1</mark></td><td><mark>t</mark>wo</td>');
    expect(html).toContain('<p>End.</p>');
  });

  it('marks a formula the span starts or ends in whole, typeset without the sentinels', () => {
    const html = render('The rule is $Q(s) \\leftar«row r$ here.\n\n$$\nx + 1\n$$\n\nand $y»$ too.');
    const typeset = html.match(/<mark><span class="katex">/g) ?? [];
    expect(typeset).toHaveLength(2);
    expect(html).toContain('<mark class="cited-block"><span class="katex-display">');
    expect(html).not.toContain('katex-error');
    expect(html).toContain(' too.</p>');
  });

  it('keeps emphasis a span starts in, and a dollar a dollar where there is no math', () => {
    expect(render('«_Note_: it costs $5 or $10.»', false)).toBe(
      '<mark class="cited-block"><p><em>Note</em>: it costs $5 or $10.</p></mark>',
    );
  });

  it('opens links outside the console and loads no images', () => {
    const html = render('See [the spec](https://example.org/spec) and ![a diagram](diagram.png).');
    expect(html).toContain('<a href="https://example.org/spec" target="_blank" rel="noreferrer noopener">');
    expect(html).toContain('<span class="document-image">[image: a diagram]</span>');
    expect(html).not.toMatch(/<img|diagram\.png/);
  });
});
