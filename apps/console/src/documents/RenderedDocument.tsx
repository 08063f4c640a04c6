import 'katex/dist/katex.min.css';
import Markdown, { type Components, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { rehypeLiftMathSentinels, rehypeMarkCitedSpan } from './rehype-cited-span.js';

type Plugins = NonNullable<Options['rehypePlugins']>;

// Sentinels leave math before KaTeX reads it; marks go in after highlighting, inside its spans.
const WITH_MATH: Plugins = [
  rehypeLiftMathSentinels,
  rehypeKatex,
  [rehypeHighlight, { detect: false }],
  rehypeMarkCitedSpan,
];
const WITHOUT_MATH: Plugins = [[rehypeHighlight, { detect: false }], rehypeMarkCitedSpan];

const components: Components = {
  // Under the viewer's h2, a document's own headings start at h3, so the page keeps one outline.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h6>{children}</h6>,
  h5: ({ children }) => <h6>{children}</h6>,
  // A document's links lead out of the console, as an answer's do.
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // Not loaded: a relative path means nothing here, and a remote one would be fetched from wherever
  // the document points.
  img: ({ alt }) => <span className="document-image">[image{alt ? `: ${alt}` : ''}]</span>,
};

/**
 * A document's Markdown rendered as answers are (GitHub tables, highlighted code, KaTeX math when
 * `math`), with the text between SPAN_START and SPAN_END in `<mark>`s. Raw HTML is shown as text,
 * never run: react-markdown builds React elements from the Markdown tree.
 */
export function RenderedDocument({ markdown, math }: { markdown: string; math: boolean }) {
  return (
    <Markdown
      remarkPlugins={math ? [remarkGfm, remarkMath] : [remarkGfm]}
      rehypePlugins={math ? WITH_MATH : WITHOUT_MATH}
      components={components}
    >
      {markdown}
    </Markdown>
  );
}
