import { useState } from 'react';
import { ApiError, asApiError, graphql } from '../api/graphql.js';
import { DELETE_DOCUMENT, REFRESH_DOCUMENT } from '../api/operations.js';
import type { DocumentSummary, IngestResult } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { Link } from '../layout/Link.js';
import { useSession } from '../session/session.js';

/** The console URL of a document, with a cited span and the (PDF) page it is on when given. */
export function documentHref(
  id: string,
  span?: { start: number; end: number },
  page?: number | null,
): string {
  const params = new URLSearchParams({ open: id });
  if (span) {
    params.set('start', String(span.start));
    params.set('end', String(span.end));
  }
  if (page != null) params.set('page', String(page));
  return `/documents?${params}`;
}

/** One document: open it, refresh it from its source, or delete it (asked twice). */
export function DocumentRow({ document, onChanged }: { document: DocumentSummary; onChanged: () => void }) {
  const { apiKey, workspaceId } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const run = async (label: string, work: () => Promise<string | null>) => {
    setBusy(label);
    setError(null);
    setNote(null);
    try {
      setNote(await work());
      onChanged();
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  const remove = () =>
    run('Deleting…', async () => {
      await graphql(apiKey, DELETE_DOCUMENT, { workspaceId, id: document.id });
      return null;
    });
  const refresh = () =>
    run('Refreshing…', async () => {
      const { refreshDocument: result } = await graphql<{ refreshDocument: IngestResult }>(
        apiKey,
        REFRESH_DOCUMENT,
        {
          workspaceId,
          id: document.id,
        },
      );
      const failure = result.summary?.failures[0];
      if (failure) throw new ApiError(failure.code, failure.message);
      const counts = result.summary?.documents;
      return counts
        ? counts.unchanged > 0
          ? 'unchanged'
          : 'refreshed'
        : `queued (job ${result.jobs[0]?.id ?? '?'})`;
    });

  return (
    <tr>
      <th scope="row">
        <Link href={documentHref(document.id)}>{document.title || document.id}</Link>
        {document.title && <div className="muted">{document.id}</div>}
      </th>
      <td>{document.kind}</td>
      <td className="number">{document.chunkCount}</td>
      <td>{new Date(document.updatedAt).toLocaleString()}</td>
      <td className="actions">
        {busy ?? (
          <>
            <button
              type="button"
              className="quiet"
              aria-label={`Refresh ${document.id}`}
              onClick={() => void refresh()}
            >
              Refresh
            </button>
            {confirming ? (
              <>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Confirm delete ${document.id}`}
                  onClick={() => void remove()}
                >
                  Confirm delete
                </button>
                <button type="button" className="quiet" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button
                type="button"
                className="quiet"
                aria-label={`Delete ${document.id}`}
                onClick={() => setConfirming(true)}
              >
                Delete
              </button>
            )}
          </>
        )}
        {note && <span className="muted"> {note}</span>}
        <ErrorMessage error={error} />
      </td>
    </tr>
  );
}
