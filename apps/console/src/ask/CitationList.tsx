import type { Citation } from '../api/types.js';
import { documentHref } from '../documents/DocumentRow.js';
import { Link } from '../layout/Link.js';

/** Sources of the answer: each opens its document with the cited span highlighted. */
export function CitationList({ citations }: { citations: Citation[] }) {
  if (citations.length === 0) return null;
  const sorted = [...citations].sort((a, b) => a.index - b.index);
  return (
    <section aria-labelledby="citations-heading">
      <h3 id="citations-heading">Sources</h3>
      <ol className="citations">
        {sorted.map((citation) => (
          <li key={citation.index} value={citation.index}>
            <Link
              href={documentHref(citation.sourceId, { start: citation.startOffset, end: citation.endOffset })}
            >
              {citation.title || citation.sourceId}
            </Link>
            <span className="muted">
              {' '}
              {citation.sourceId}
              {citation.pageNumber !== null && `, page ${citation.pageNumber}`} · score{' '}
              {citation.score.toFixed(3)}
            </span>
            <blockquote>{citation.snippet}</blockquote>
          </li>
        ))}
      </ol>
    </section>
  );
}
