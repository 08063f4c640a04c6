import { describe, expect, it } from 'vitest';
import { loadHtml } from './html.js';

const load = (html: string, sourcePath = 'html/pricing.html') => {
  const result = loadHtml({ sourcePath, text: html });
  expect(result.failures).toEqual([]);
  expect(result.documents).toHaveLength(1);
  return result.documents[0]!;
};
const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const PRICING = page(
  `<nav><a href="/">Home</a> | <a href="/docs">Docs menu</a></nav>
<main><h1>Pricing   &amp; plans</h1>
<p>Rates are &lt;per parcel&gt; &mdash; billed &quot;monthly&quot;.</p>
<h2>Tiers</h2><h3>Starter <em>tier</em></h3>
<pre><code class="language-ts">function quote(weight: number) {
    if (weight &gt; 30) {
        return 'freight';
    }
}</code></pre>
<table><thead><tr><th>Plan</th><th>Price</th></tr></thead>
<tbody><tr><td>Starter</td><td>$10 | month</td></tr><tr><td>Pro</td><td>$50</td></tr></tbody></table>
<script>window.tracking = "SCRIPT-CONTENT";</script>
</main><footer>Copyright 2024 FOOTER-CONTENT</footer>`,
  '<title>Pricing &amp; Plans | Northwind</title><link rel="canonical" href="https://docs.example/pricing">' +
    '<style>body { color: red } .STYLE-CONTENT {}</style><script>var secret = "HEAD-SCRIPT";</script>',
);

describe('loadHtml', () => {
  const document = load(PRICING);

  it('renders the page as Markdown-shaped text', () => {
    expect(document.text).toBe(
      [
        '# Pricing & plans',
        '',
        'Rates are <per parcel> — billed "monthly".',
        '',
        '## Tiers',
        '',
        '### Starter tier',
        '',
        '```ts',
        'function quote(weight: number) {',
        '    if (weight > 30) {',
        "        return 'freight';",
        '    }',
        '}',
        '```',
        '',
        '| Plan | Price |',
        '| --- | --- |',
        '| Starter | $10 \\| month |',
        '| Pro | $50 |',
        '',
      ].join('\n'),
    );
  });

  it.each(['SCRIPT-CONTENT', 'HEAD-SCRIPT', 'STYLE-CONTENT', 'FOOTER-CONTENT', 'Docs menu', 'color: red'])(
    'leaves out %j (scripts, styles, nav and footer are not content)',
    (fragment) => {
      expect(document.text).not.toContain(fragment);
    },
  );

  it('takes the <title> as title and the canonical link as url', () => {
    expect(document).toMatchObject({
      sourcePath: 'html/pricing.html',
      sourceFile: 'html/pricing.html',
      kind: 'html',
      title: 'Pricing & Plans | Northwind',
      url: 'https://docs.example/pricing',
    });
  });

  it('turns headings into heading blocks of the right level and <pre> into one code block', () => {
    const blocks = document.blocks.map((block) => [block.type, block.level, block.title]);
    expect(blocks).toEqual([
      ['heading', 1, 'Pricing & plans'],
      ['paragraph', undefined, undefined],
      ['heading', 2, 'Tiers'],
      ['heading', 3, 'Starter tier'],
      ['code', undefined, undefined],
      ['table', undefined, undefined],
    ]);
  });

  it.each([
    ['h4', '#### Deep'],
    ['h5', '##### Deep'],
    ['h6', '###### Deep'],
  ])('writes <%s> as %j', (tag, line) => {
    expect(load(page(`<${tag}>Deep</${tag}><p>x</p>`)).text).toBe(`${line}\n\nx\n`);
  });

  it.each([
    ['<pre><code class="language-python">x = 1</code></pre>', '```python\nx = 1\n```\n'],
    ['<pre class="lang-sh">npm  install\n  --save</pre>', '```sh\nnpm  install\n  --save\n```\n'],
    ['<pre><code>line 1<br>line 2</code></pre>', '```\nline 1\nline 2\n```\n'],
    ['<pre>\n\tindented\n</pre>', '```\n\tindented\n```\n'],
  ])('keeps whitespace of %j inside a fence', (html, text) => {
    expect(load(page(html)).text).toBe(text);
  });

  it('keeps a <pre> inside a list item as a fenced code block', () => {
    const html = page(
      '<ol><li>Install:<pre><code class="language-sh">npm install\nnpm run build</code></pre></li></ol>',
    );
    const loaded = load(html);
    expect(loaded.text).toContain('```sh\nnpm install\nnpm run build\n```');
    expect(loaded.blocks.map((block) => block.type)).toContain('code');
  });

  it('writes tables as pipe rows with a separator after the header and pads short rows', () => {
    const html = page('<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>1</td><td>2</td></tr></table>');
    expect(load(html).text).toBe('| A | B | C |\n| --- | --- | --- |\n| 1 | 2 |  |\n');
  });

  it('writes list items as "-" and "1." lines', () => {
    const html = page(
      '<ul>\n  <li>First   item</li>\n  <li>Second <b>item</b></li>\n</ul><ol><li>one</li></ol>',
    );
    expect(load(html).text).toBe('- First item\n\n- Second item\n\n1. one\n');
  });

  it('renders inline code with backticks and <br> as a line break', () => {
    expect(load(page('<p>Call <code>createLocation()</code> then<br>wait.</p>')).text).toBe(
      'Call `createLocation()` then\nwait.\n',
    );
  });

  it.each([
    ['<p hidden>HIDDEN</p><p>shown</p>'],
    ['<div aria-hidden="true">HIDDEN</div><p>shown</p>'],
    ['<noscript>HIDDEN</noscript><p>shown</p>'],
    ['<form><button>HIDDEN</button></form><p>shown</p>'],
    ['<svg><text>HIDDEN</text></svg><p>shown</p>'],
  ])('drops invisible content in %j', (body) => {
    expect(load(page(body)).text).toBe('shown\n');
  });

  it.each([
    ['&amp; &lt; &gt; &quot; &#39; &#x263A; &eacute;', '& < > " \' ☺ é'],
    ['caf&eacute;&nbsp;au&nbsp;lait', 'café au lait'],
  ])('decodes entities in %j', (html, text) => {
    expect(load(page(`<p>${html}</p>`)).text).toBe(`${text}\n`);
  });

  it.each([
    [
      'og:url when there is no canonical link',
      '<meta property="og:url" content="https://x.example/s">',
      'https://x.example/s',
    ],
    ['null without either', '<meta name="description" content="d">', null],
  ])('takes the url from %s', (_case, head, url) => {
    expect(load(page('<p>x</p>', head)).url).toBe(url);
  });

  it.each([
    ['the first H1 without a <title>', page('<h2>Intro</h2><h1>Status page</h1>'), 'Status page'],
    ['the file name without <title> or H1', page('<h2>Status</h2><p>OK</p>'), 'status history'],
    [
      'a <title> with collapsed whitespace',
      page('<p>x</p>', '<title>\n  Status\n  History </title>'),
      'Status History',
    ],
  ])('takes the title from %s', (_case, html, title) => {
    expect(load(html, 'html/status_history.html').title).toBe(title);
  });

  it('gives a page without content an empty text, not an error', () => {
    expect(load(page('<nav>Only navigation</nav>')).text).toBe('\n');
  });
});
