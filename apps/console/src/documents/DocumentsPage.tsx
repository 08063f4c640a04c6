import { UploadList } from '../upload/UploadList.js';
import { UploadZone } from '../upload/UploadZone.js';
import { useUploads } from '../upload/use-uploads.js';
import { DocumentList } from './DocumentList.js';
import { DocumentViewer } from './DocumentViewer.js';
import { useDocuments } from './use-documents.js';

function spanOf(params: URLSearchParams): { start: number; end: number } | null {
  const start = Number(params.get('start'));
  const end = Number(params.get('end'));
  return params.has('start') && params.has('end') && Number.isInteger(start) && end > start
    ? { start, end }
    : null;
}

/** A PDF citation's page, 1-based; absent or not a positive whole number, none. */
function pageOf(params: URLSearchParams): number | null {
  const page = Number(params.get('page'));
  return params.has('page') && Number.isInteger(page) && page > 0 ? page : null;
}

/**
 * Upload, list, search, refresh and delete documents; `?open=<id>` shows one (`&start=&end=`: a span,
 * `&page=`: its page). Keyed by document, so the viewer's state (source or rendered) starts afresh.
 */
export function DocumentsPage({ params }: { params: URLSearchParams }) {
  const list = useDocuments();
  const { uploads, upload } = useUploads(list.reload);
  const open = params.get('open');
  return (
    <>
      <h1>Documents</h1>
      {open && <DocumentViewer key={open} id={open} span={spanOf(params)} page={pageOf(params)} />}
      <UploadZone onFiles={upload} />
      <UploadList uploads={uploads} />
      <DocumentList list={list} />
    </>
  );
}
