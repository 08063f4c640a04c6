import { useEffect, useRef, useState } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { DOCUMENT, DOCUMENT_CHUNKS } from '../api/operations.js';
import type { DocumentDetail } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { Link } from '../layout/Link.js';
import { useSession } from '../session/session.js';
import { documentSegments } from './document-text.js';

/** One document's text, with the span a citation points at (start..end) marked and scrolled to. */
export function DocumentViewer({ id, span }: { id: string; span: { start: number; end: number } | null }) {
  const { apiKey, workspaceId } = useSession();
  const [document, setDocument] = useState<DocumentDetail | null | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const mark = useRef<HTMLElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    setDocument(undefined);
    setError(null);
    graphql<{ document: DocumentDetail | null }>(
      apiKey,
      DOCUMENT,
      { workspaceId, id, chunks: DOCUMENT_CHUNKS },
      controller.signal,
    )
      .then((data) => setDocument(data.document))
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setError(asApiError(caught));
      });
    return () => controller.abort();
  }, [apiKey, workspaceId, id]);

  useEffect(() => {
    mark.current?.scrollIntoView({ block: 'center' });
  }, [document, span?.start, span?.end]);

  const segments = document ? documentSegments(document.chunks, span) : [];
  let marked = false;
  return (
    <section className="viewer" aria-labelledby="viewer-heading">
      <div className="row">
        <h2 id="viewer-heading">{document?.title || id}</h2>
        <Link href="/documents">Close document</Link>
      </div>
      <p className="muted">
        {id}
        {document && ` · ${document.kind} · ${document.chunkCount} chunks`}
        {span && ` · cited characters ${span.start}–${span.end}`}
      </p>
      <ErrorMessage error={error} />
      {document === undefined && !error && <p role="status">Loading…</p>}
      {document === null && (
        <p role="alert">No document {id} in this workspace (it may have been deleted).</p>
      )}
      {document && document.chunkCount > document.chunks.length && (
        <p className="muted">
          Showing the first {document.chunks.length} of {document.chunkCount} chunks.
        </p>
      )}
      {document && (
        <pre className="document-text" tabIndex={0} aria-label={`Text of ${id}`}>
          {segments.map((segment, index) => {
            if (segment.gap)
              return (
                <span key={index} className="gap">
                  {segment.text}
                </span>
              );
            if (!segment.marked) return <span key={index}>{segment.text}</span>;
            const first = !marked;
            marked = true;
            return (
              <mark key={index} ref={first ? mark : undefined}>
                {segment.text}
              </mark>
            );
          })}
        </pre>
      )}
    </section>
  );
}
