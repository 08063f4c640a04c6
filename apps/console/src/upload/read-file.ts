import { ApiError } from '../api/graphql.js';

/**
 * The formats the console uploads, as the API's loaders read them: Markdown, text, HTML, JSON and
 * JSONL (records, knowledge packs), YAML (OpenAPI) go as `content`; PDF and DOCX as `contentBase64`.
 */
export const TEXT_EXTENSIONS = [
  '.md',
  '.markdown',
  '.mdx',
  '.txt',
  '.text',
  '.html',
  '.htm',
  '.json',
  '.jsonl',
  '.ndjson',
  '.yaml',
  '.yml',
];
export const BINARY_EXTENSIONS = ['.pdf', '.docx'];
export const ACCEPT = [...TEXT_EXTENSIONS, ...BINARY_EXTENSIONS].join(',');

/**
 * /graphql reads at most 1 MiB per request; base64 grows a file by a third, and the request's JSON
 * needs room too. Bigger files go through a server folder (`pnpm rag:ingest`).
 */
export const MAX_UPLOAD_BYTES = 700 * 1024;

export interface InlineDocument {
  id: string;
  content?: string;
  contentBase64?: string;
}

/** A file to upload, and its path inside a dropped folder (else its name). */
export interface PickedFile {
  file: File;
  path: string;
}

/**
 * Where an upload goes in the workspace: under uploads/ (the first path segment is a document's
 * source root), keeping a dropped folder's layout; never a `..` or empty segment.
 */
export function uploadId(filePath: string): string {
  const segments = filePath
    .split(/[\\/]+/)
    .filter((segment) => segment && segment !== '.' && segment !== '..');
  return `uploads/${segments.join('/')}`;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** A file as an inline document, or ApiError (UNSUPPORTED_FILE_TYPE, FILE_TOO_LARGE) before any upload. */
export async function readUpload({ file, path }: PickedFile): Promise<InlineDocument> {
  const extension = extensionOf(file.name);
  const binary = BINARY_EXTENSIONS.includes(extension);
  if (!binary && !TEXT_EXTENSIONS.includes(extension)) {
    throw new ApiError(
      'UNSUPPORTED_FILE_TYPE',
      `"${extension || '(none)'}" cannot be uploaded here (supported: ${ACCEPT.replaceAll(',', ' ')})`,
    );
  }
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new ApiError(
      'FILE_TOO_LARGE',
      `${file.size} bytes; uploads are limited to ${MAX_UPLOAD_BYTES} bytes (ingest bigger files from a folder)`,
    );
  }
  const id = uploadId(path);
  return binary ? { id, contentBase64: await base64Of(file) } : { id, content: await file.text() };
}

async function base64Of(file: File): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new ApiError('FILE_UNREADABLE', `cannot read ${file.name}`));
    reader.readAsDataURL(file);
  });
  // A data: URL is "data:<type>;base64,<payload>".
  return url.slice(url.indexOf(',') + 1);
}
