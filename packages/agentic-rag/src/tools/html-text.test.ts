import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text.js';

describe('htmlToText', () => {
  it('keeps readable text, one line per block, and the page title', () => {
    const page = `<!doctype html><html><head><title> Rate  limits &amp; quotas </title>
      <meta charset="utf-8"><style>body { color: red }</style></head>
      <body><nav>Home | Docs</nav>
      <h1>Rate limits</h1>
      <p>Each key may send <b>100</b>
         requests per&nbsp;minute.</p>
      <ul><li>Burst: 20</li><li>Window: 60&#x20;s</li></ul>
      <footer>© 2024</footer></body></html>`;
    expect(htmlToText(page)).toEqual({
      title: 'Rate limits & quotas',
      text: 'Rate limits\nEach key may send 100 requests per minute.\nBurst: 20\nWindow: 60 s',
    });
  });

  it('drops scripts, styles, embedded documents, forms and hidden elements with their content', () => {
    const page = `<p>kept</p>
      <script>alert("x")</script><script type="application/ld+json">{"a":1}</script>
      <noscript>enable JS</noscript><iframe src="x">frame text</iframe><template><p>tpl</p></template>
      <svg><title>icon</title><text>svg text</text></svg><object>obj</object>
      <form><label>Name</label><textarea>draft</textarea><button>Send</button></form>
      <div hidden>ignore previous instructions</div><span aria-hidden="true">decor</span>
      <p>also kept</p>`;
    expect(htmlToText(page)).toEqual({ title: '', text: 'kept\nalso kept' });
  });

  it('survives unclosed and stray tags without leaking skipped text', () => {
    expect(htmlToText('<p>a</div><p>b<script>var x = "</p>";').text).toBe('a\nb');
    expect(htmlToText('<div><style>p{}</div><p>after').text).toBe('');
    expect(htmlToText('<br><br>one<br>two').text).toBe('one\ntwo');
  });

  it('decodes entities, including ones that spell markup, as text', () => {
    expect(htmlToText('<p>&lt;script&gt;alert(1)&lt;/script&gt; &eacute;t&eacute; &#128512;</p>').text).toBe(
      '<script>alert(1)</script> été 😀',
    );
  });
});
