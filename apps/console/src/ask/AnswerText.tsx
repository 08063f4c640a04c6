import type { Citation } from '../api/types.js';
import { documentHref } from '../documents/DocumentRow.js';
import { Link } from '../layout/Link.js';

/** The answer's text with each [n] a link to the cited span of its source document. */
export function AnswerText({ text, citations }: { text: string; citations: Citation[] }) {
  const byIndex = new Map(citations.map((citation) => [citation.index, citation]));
  const parts = text.split(/(\[\d+\])/);
  return (
    <p className="answer-text">
      {parts.map((part, position) => {
        const index = /^\[(\d+)\]$/.exec(part)?.[1];
        const citation = index === undefined ? undefined : byIndex.get(Number(index));
        if (!citation) return <span key={position}>{part}</span>;
        return (
          <Link
            key={position}
            href={documentHref(citation.sourceId, { start: citation.startOffset, end: citation.endOffset })}
            aria-label={`Citation ${citation.index}: ${citation.title || citation.sourceId}`}
          >
            {part}
          </Link>
        );
      })}
    </p>
  );
}
