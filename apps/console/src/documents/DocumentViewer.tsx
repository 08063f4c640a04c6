import { useEffect, useMemo, useRef, useState } from 'react';
import { DOCUMENT, DOCUMENT_CHUNKS } from '../api/operations.js';
import type { DocumentDetail } from '../api/types.js';
import { useGraphqlRead } from '../api/use-graphql-read.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { Link } from '../layout/Link.js';
import { useSession } from '../session/session.js';
import { documentSegments, joinSegments } from './document-text.js';
import { RenderedDocument } from './RenderedDocument.js';
import { SPAN_START, withSpanSentinels } from './span-sentinels.js';
import './viewer.css';

/**
 * Kinds whose stored text is Markdown (see packages/agentic-rag/src/ingest/loaders): Markdown as
 * written, and HTML and .docx converted to Markdown-shaped text (headings, fences, pipe tables,
 * lists) that never holds math, so a `$` there is a dollar. PDF text is Markdown-shaped too, but
 * laid out from glyph positions, its equations plain text rather than TeX: it keeps the source view,
 * as do plain text, JSON, YAML, OpenAPI and knowledge pieces.
 */
const RENDERED: Partial<Record<string, { math: boolean }>> = {
  markdown: { math: true },
  html: { math: false },
  docx: { math: false },
};

/**
 * One document's text, rendered when its kind is Markdown-shaped (or as source, on request), with
 * the span a citation points at (start..end, on `page` of a PDF) marked and scrolled to.
 */
export function DocumentViewer({
  id,
  span,
  page,
}: {
  id: string;
  span: { start: number; end: number } | null;
  page: number | null;
}) {
  const { apiKey, workspaceId } = useSession();
  const read = useGraphqlRead<{ document: DocumentDetail | null }>(apiKey, DOCUMENT, {
    workspaceId,
    id,
    chunks: DOCUMENT_CHUNKS,
  });
  // Undefined while loading, null when there is no such document.
  const document = read.data ? read.data.document : undefined;
  const { error } = read;
  // Null until the reader chooses: rendered, unless the span cannot be placed in the rendered text.
  const [showSource, setShowSource] = useState<boolean | null>(null);
  const section = useRef<HTMLElement>(null);

  // The span by value: the page parses a new object from the URL on every render.
  const segments = useMemo(
    () => (document ? documentSegments(document.chunks, span) : []),
    [document, span?.start, span?.end],
  );
  const rendering = document ? RENDERED[document.kind] : undefined;
  const markdown = useMemo(() => {
    if (!rendering) return null;
    const joined = joinSegments(segments);
    const text = withSpanSentinels(joined.text, joined.span);
    return { text, unplaced: joined.span !== null && !text.includes(SPAN_START) };
  }, [segments, rendering]);
  const source = showSource ?? markdown?.unplaced ?? false;
  const rendered = rendering && markdown && !source;

  useEffect(() => {
    const first = section.current?.querySelector('mark');
    // A cited passage taller than half the window is shown from its start, a shorter one centred.
    first?.scrollIntoView({ block: first.offsetHeight > window.innerHeight / 2 ? 'start' : 'center' });
  }, [segments, rendered]);

  return (
    <section className="viewer" aria-labelledby="viewer-heading" ref={section}>
      <div className="row">
        <h2 id="viewer-heading">{document?.title || id}</h2>
        {rendering && (
          <button type="button" className="quiet" onClick={() => setShowSource(!source)}>
            {source ? 'Show rendered' : 'Show source'}
          </button>
        )}
        <Link href="/documents">Close document</Link>
      </div>
      <p className="muted">
        {id}
        {document && ` · ${document.kind} · ${document.chunkCount} chunks`}
        {span && ` · cited characters ${span.start}–${span.end}`}
        {page !== null && ` · page ${page}`}
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
      {document && rendered && (
        <div className="document-rendered markdown" tabIndex={0} aria-label={`Text of ${id}`}>
          <RenderedDocument markdown={markdown.text} math={rendering.math} />
        </div>
      )}
      {document && !rendered && (
        <pre className="document-text" tabIndex={0} aria-label={`Text of ${id}`}>
          {segments.map((segment, index) => {
            if (segment.gap)
              return (
                <span key={index} className="gap">
                  {segment.text}
                </span>
              );
            return segment.marked ? (
              <mark key={index}>{segment.text}</mark>
            ) : (
              <span key={index}>{segment.text}</span>
            );
          })}
        </pre>
      )}
    </section>
  );
}
