import type { JobRecord } from '../store/index.js';

/** The names a list shows of a job's documents before it says how many more there are. */
const NAMED = 3;

/**
 * A job as callers see it: the corpus version a finished ingest left, and what it works on in words
 * a person reads (a document, a list of them, a crawl's start page), taken from whichever payload
 * shape the job's kind keeps: queued ingests, inline ingests, refreshes and crawls each differ.
 */
export function jobView(record: JobRecord) {
  const corpusVersion = (record.result as { corpusVersion?: unknown } | null)?.corpusVersion;
  return {
    ...record,
    corpusVersion: typeof corpusVersion === 'number' ? corpusVersion : null,
    subject: subjectOf(record.payload),
  };
}

function subjectOf(payload: unknown): string | null {
  if (!isRecord(payload)) return null;
  if (typeof payload.document === 'string') return payload.document;
  if (typeof payload.id === 'string') return payload.id;
  if (isRecord(payload.source)) {
    const { relativePath, id } = payload.source;
    if (typeof relativePath === 'string') return relativePath;
    if (typeof id === 'string') return id;
  }
  if (isRecord(payload.request)) {
    if (typeof payload.request.url === 'string') return payload.request.url;
  }
  const names = [payload.paths, payload.documents]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .filter((name): name is string => typeof name === 'string');
  if (names.length === 0) return null;
  const more = names.length - NAMED;
  return names.slice(0, NAMED).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type JobView = ReturnType<typeof jobView>;
