import { useId } from 'react';
import type { Citation } from '../api/types.js';
import { documentHref } from '../documents/DocumentRow.js';
import { Link } from '../layout/Link.js';
import { plainSnippet } from './snippet.js';

/** Sources of the answer: each opens its document with the cited span highlighted. */
export function CitationList({ citations }: { citations: Citation[] }) {
  // A thread shows several answers' sources: each list names its own heading.
  const headingId = useId();
  if (citations.length === 0) return null;
  const sorted = [...citations].sort((a, b) => a.index - b.index);
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Sources</h3>
      <ol className="citations">
        {sorted.map((citation) => (
          <li key={citation.index} value={citation.index}>
            <Link
              href={documentHref(
                citation.sourceId,
                { start: citation.startOffset, end: citation.endOffset },
                citation.pageNumber,
              )}
            >
              {citation.title || citation.sourceId}
            </Link>
            <span className="muted">
              {' '}
              {citation.sourceId}
              {citation.pageNumber !== null && `, page ${citation.pageNumber}`} · score{' '}
              {citation.score.toFixed(3)}
            </span>
            <blockquote>{plainSnippet(citation.snippet)}</blockquote>
          </li>
        ))}
      </ol>
    </section>
  );
}
