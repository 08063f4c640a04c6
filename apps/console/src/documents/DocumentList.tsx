import { useState } from 'react';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import type { useDocuments } from './use-documents.js';
import { DocumentRow } from './DocumentRow.js';

/** The workspace's documents, filtered as you type (id or title). */
export function DocumentList({ list }: { list: ReturnType<typeof useDocuments> }) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? list.documents.filter((document) =>
        `${document.id} ${document.title ?? ''}`.toLowerCase().includes(needle),
      )
    : list.documents;
  return (
    <section aria-labelledby="documents-heading">
      <div className="row">
        <h2 id="documents-heading">Documents</h2>
        <span className="muted" role="status">
          {list.loading ? 'Loading…' : `${list.total} in the workspace`}
        </span>
      </div>
      <label htmlFor="document-filter">Search documents</label>
      <input
        id="document-filter"
        type="search"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        placeholder="id or title"
      />
      <ErrorMessage error={list.error} />
      <div className="table-scroll">
        <table className="documents">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Kind</th>
              <th scope="col">Chunks</th>
              <th scope="col">Updated</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((document) => (
              <DocumentRow key={document.id} document={document} onChanged={list.reload} />
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && shown.length === 0 && (
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
