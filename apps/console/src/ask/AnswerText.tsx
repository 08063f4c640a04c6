import 'katex/dist/katex.min.css';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { Citation } from '../api/types.js';
import { documentHref } from '../documents/DocumentRow.js';
import { Link } from '../layout/Link.js';

// Outside fenced and inline code, a citation marker `[n]` (not a Markdown link's text `[n](...)`).
const CODE_OR_MARKER = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)|\[(\d+)\](?!\()/g;

/**
 * Each `[n]` naming a citation becomes a Markdown link to the cited span, so it stays a link
 * wherever the Markdown puts it (a list item, a table cell). Code is left as written.
 */
function linkCitations(text: string, byIndex: ReadonlyMap<number, Citation>): string {
  return text.replace(CODE_OR_MARKER, (match, code: string | undefined, index: string | undefined) => {
    if (code !== undefined) return match;
    const citation = byIndex.get(Number(index));
    if (!citation) return match;
    const href = documentHref(
      citation.sourceId,
      { start: citation.startOffset, end: citation.endOffset },
      citation.pageNumber,
    );
    return `[\\[${index}\\]](<${href}>)`;
  });
}

/**
 * The answer rendered as Markdown (GitHub tables, highlighted code, KaTeX math), with each [n] a
 * link to the cited span of its source. Raw HTML in the text is shown as text, never run:
 * react-markdown builds React elements from the Markdown tree and skips HTML nodes.
 */
export function AnswerText({ text, citations }: { text: string; citations: Citation[] }) {
  const byIndex = new Map(citations.map((citation) => [citation.index, citation]));
  const byHref = new Map(
    citations.map((citation) => [
      documentHref(
        citation.sourceId,
        { start: citation.startOffset, end: citation.endOffset },
        citation.pageNumber,
      ),
      citation,
    ]),
  );
  const components: Components = {
    a: ({ href, children }) => {
      const citation = href ? byHref.get(href) : undefined;
      if (citation && href)
        return (
          <Link href={href} aria-label={`Citation ${citation.index}: ${citation.title || citation.sourceId}`}>
            {children}
          </Link>
        );
      // Any other link the model wrote leaves the console in a new tab.
      return (
        <a href={href} target="_blank" rel="noreferrer noopener">
          {children}
        </a>
      );
    },
  };
  return (
    <div className="answer-text markdown">
      <Markdown
        remarkPlugins={[remarkGfm, remarkMath]}
        rehypePlugins={[rehypeKatex, [rehypeHighlight, { detect: false }]]}
        components={components}
      >
        {linkCitations(text, byIndex)}
      </Markdown>
    </div>
  );
}
