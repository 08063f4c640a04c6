import { ColumnHeads } from '../layout/ColumnHeads.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';
import type { DocumentOrder, useDocuments } from './use-documents.js';
import { DocumentRow } from './DocumentRow.js';

/** The workspace's documents, searched on the server as you type (id, title or kind). */
export function DocumentList({ list }: { list: ReturnType<typeof useDocuments> }) {
  const { workspaceId } = useSession();
  // Not an error to be alarmed by: a workspace comes into being with its first document.
  const missing = list.error?.code === 'WORKSPACE_NOT_FOUND';
  const shown = list.documents;
  const needle = list.searched.trim();
  return (
    <section aria-labelledby="documents-heading">
      <div className="row">
        <h2 id="documents-heading">Documents</h2>
        <span className="muted" role="status">
          {list.loading
            ? 'Loading…'
            : needle
              ? `${list.total} matching “${needle}”`
              : `${list.total} in the workspace`}
        </span>
      </div>
      <div className="list-controls">
        <div className="stack">
          <label htmlFor="document-filter">Search documents</label>
          <input
            id="document-filter"
            type="search"
            value={list.search}
            onChange={(event) => list.setSearch(event.target.value)}
            placeholder="id, title or kind"
          />
        </div>
        <div className="stack">
          <label htmlFor="document-order">Sort</label>
          <select
            id="document-order"
            value={list.order}
            onChange={(event) => list.setOrder(event.target.value as DocumentOrder)}
          >
            <option value="UPDATED">Recently updated</option>
            <option value="PATH">By id</option>
          </select>
        </div>
      </div>
      {missing ? (
        <p className="notice" role="status">
          There is no workspace “{workspaceId}” yet: the first document uploaded above creates it.
        </p>
      ) : (
        <ErrorMessage error={list.error} />
      )}
      <div className="table-scroll">
        <table className="documents">
          <ColumnHeads names={['Document', 'Kind', 'Chunks', 'Updated', 'Actions']} />
          <tbody>
            {shown.map((document) => (
              <DocumentRow
                key={document.id}
                document={document}
                onChanged={() => list.changed(document.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && !missing && shown.length === 0 && (
        <p className="muted">No documents{needle ? ' match' : ' yet'}.</p>
      )}
      {list.hasMore && (
        <button type="button" onClick={list.loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}
