import { ErrorCode } from '../../errors/index.js';
import type { LoadedDocument, LoadFailure } from '../document.js';
import type { Loader, LoaderInput, LoadResult } from './loader.js';
import { markdownDocument } from './markdown.js';
import { isOpenApi3, loadOpenApiSpec } from './openapi.js';

const TEXT_FIELDS = ['text', 'content', 'body', 'markdown'] as const;
const ID_FIELDS = ['id', '_id', 'doc_id', 'slug'] as const;
const CONTAINER_FIELDS = ['records', 'documents', 'items', 'data'] as const;

/**
 * Text records: a .jsonl file (one object per line) or a .json array (or an object holding one
 * under records/documents/items/data). Each record becomes its own document `<file>#<id>`, so it
 * is cited, updated and pruned on its own. A bad record is reported and the others still load.
 * The BEIR corpus format (`_id`, `title`, `text`) is one of these.
 */
export const loadJsonRecords: Loader = (input) => {
  const failures: LoadFailure[] = [];
  const records: Array<{ value: unknown; position: string }> = [];

  const lowerPath = input.sourcePath.toLowerCase();
  if (lowerPath.endsWith('.jsonl') || lowerPath.endsWith('.ndjson')) {
    input.text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        records.push({ value: JSON.parse(line), position: `line ${index + 1}` });
      } catch (error) {
        failures.push(failure(input, `line ${index + 1}: invalid JSON (${(error as Error).message})`));
      }
    });
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.text);
    } catch (error) {
      return { documents: [], failures: [failure(input, `invalid JSON: ${(error as Error).message}`)] };
    }
    // An OpenAPI 3 spec in JSON is not a list of records: it gets the same documents as in YAML.
    if (isOpenApi3(parsed)) return loadOpenApiSpec(input, parsed);
    const list = Array.isArray(parsed) ? parsed : containedList(parsed);
    if (!list) {
      return {
        documents: [],
        failures: [
          failure(input, `expected an array of records with a text field (${TEXT_FIELDS.join('/')})`),
        ],
      };
    }
    list.forEach((value, index) => records.push({ value, position: `record ${index}` }));
  }

  return recordsToDocuments(input, records, failures);
};

function recordsToDocuments(
  input: LoaderInput,
  records: Array<{ value: unknown; position: string }>,
  failures: LoadFailure[],
): LoadResult {
  const documents: LoadedDocument[] = [];
  const seen = new Set<string>();
  records.forEach(({ value, position }, index) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      failures.push(failure(input, `${position}: expected an object`));
      return;
    }
    const record = value as Record<string, unknown>;
    const textField = TEXT_FIELDS.find(
      (field) => typeof record[field] === 'string' && (record[field] as string).trim(),
    );
    if (!textField) {
      failures.push(failure(input, `${position}: no non-empty text field (${TEXT_FIELDS.join('/')})`));
      return;
    }
    const idField = ID_FIELDS.find(
      (field) => typeof record[field] === 'string' || typeof record[field] === 'number',
    );
    const id = idField ? String(record[idField]) : String(index);
    if (seen.has(id)) {
      failures.push(failure(input, `${position}: duplicate record id "${id}"`));
      return;
    }
    seen.add(id);
    const metadata: Record<string, unknown> = { record_id: id };
    for (const [key, field] of Object.entries(record)) {
      if (key === textField || key === idField || key === 'title' || key === 'url') continue;
      metadata[key] = field;
    }
    const document = markdownDocument(
      {
        sourcePath: `${input.sourcePath}#${id}`,
        text: (record[textField] as string).replace(/\r\n?/g, '\n'),
      },
      { kind: 'json-record', sourceFile: input.sourcePath },
    );
    document.title = typeof record.title === 'string' && record.title.trim() ? record.title : document.title;
    document.url = typeof record.url === 'string' ? record.url : null;
    document.metadata = { ...document.metadata, ...metadata };
    documents.push(document);
  });
  return { documents, failures };
}

function containedList(parsed: unknown): unknown[] | undefined {
  if (!parsed || typeof parsed !== 'object') return undefined;
  for (const field of CONTAINER_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (Array.isArray(value)) return value;
  }
  return undefined;
}

function failure(input: LoaderInput, message: string): LoadFailure {
  return { sourcePath: input.sourcePath, code: ErrorCode.PARSE_FAILED, message };
}
