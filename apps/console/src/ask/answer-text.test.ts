import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Citation } from '../api/types.js';
import { AnswerText } from './AnswerText.js';

const citation = (index: number, sourceId: string): Citation => ({
  index,
  sourceId,
  chunkId: `${sourceId}#0`,
  title: sourceId.toUpperCase(),
  url: null,
  snippet: '',
  startOffset: 10,
  endOffset: 20,
  score: 1,
  pageNumber: null,
});

const render = (text: string, citations: Citation[] = [citation(1, 'guide.md')]) =>
  renderToStaticMarkup(createElement(AnswerText, { text, citations }));

describe('AnswerText', () => {
  it('renders Markdown: emphasis, lists and tables, with no Markdown syntax left', () => {
    const html = render(
      'The **warranty** lasts `42` months [1].\n\n| Part | Months |\n| --- | --- |\n| pump | 6 |\n\n- one\n- two',
    );
    expect(html).toContain('<strong>warranty</strong>');
    expect(html).toContain('<code>42</code>');
    expect(html).toMatch(/<table>[\s\S]*<th>Part<\/th>[\s\S]*<td>pump<\/td>/);
    expect(html).toContain('<li>one</li>');
    expect(html).not.toMatch(/\*\*|\| ---/);
  });

  it('keeps each [n] a link to its cited span, also inside a list or a table, and not in code', () => {
    const html = render('- see [1]\n\n| a |\n| --- |\n| [1] |\n\nNot `[1]`, nor [2] (no such citation).');
    const link =
      '<a href="/documents?open=guide.md&amp;start=10&amp;end=20" aria-label="Citation 1: GUIDE.MD">[1]</a>';
    expect(html.split(link).length - 1).toBe(2);
    expect(html).toContain('<code>[1]</code>');
    expect(html).toContain('nor [2] (no such citation)');
  });

  it('highlights fenced code by its language and typesets math with KaTeX', () => {
    const html = render('```json\n{"status": "ok"}\n```\n\nThe update is $Q(s) \\leftarrow r$.');
    expect(html).toMatch(/<pre><code class="hljs language-json">[\s\S]*<span class="hljs-attr">/);
    expect(html).toContain('class="katex"');
    // Typeset: an arrow, not the TeX command (which stays only in the MathML annotation for readers).
    expect(html).toContain('<span class="mrel">←</span>');
    expect(html.replace(/<annotation[\s\S]*?<\/annotation>/g, '')).not.toContain('\\leftarrow');
  });

  it('shows raw HTML as text, never as elements, and opens other links outside the console', () => {
    const html = render(
      'Before <script>alert(1)</script><img src=x onerror=alert(1)> after.\n\nSee [docs](https://example.org).',
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain(
      '<a href="https://example.org" target="_blank" rel="noreferrer noopener">docs</a>',
    );
  });
});
