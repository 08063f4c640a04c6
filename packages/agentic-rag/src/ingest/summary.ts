import { ErrorCode } from '../errors/index.js';
import type { WriteStatus } from '../store/index.js';
import { ingestChunks, ingestDocuments } from '../telemetry/index.js';
import type { SecretRedaction } from './secrets/index.js';

/** What one ingest run did: per-document outcomes, failures with their codes, and its speed. */
export interface IngestSummary {
  workspaceId: string;
  files: number;
  /** `skipped`: new documents with no text; `removed`: pruned, or emptied since the last run. */
  documents: {
    added: number;
    updated: number;
    unchanged: number;
    removed: number;
    skipped: number;
    failed: number;
  };
  /** Chunks written (added or replaced) by this run. */
  chunks: number;
  /** Tokens in the chunks written by this run. */
  tokens: number;
  seconds: number;
  chunksPerSecond: number;
  corpusVersion: number;
  failures: IngestFailure[];
  /** Documents whose secrets were replaced by `[REDACTED:<rule>]`: rule names and counts, never a secret. */
  redactions: IngestRedaction[];
}

export interface IngestProgress {
  filesTotal: number;
  filesDone: number;
  currentFile: string;
  chunks: number;
}

export interface IngestFailure {
  sourcePath: string;
  code: string;
  message: string;
}

export interface IngestRedaction {
  sourcePath: string;
  rules: string[];
  count: number;
}

export interface DocumentOutcome {
  status: WriteStatus | 'removed' | 'skipped';
  chunks: number;
  tokens: number;
  /** Secrets cut out of the document before it was chunked (none: an empty list). */
  redactions: SecretRedaction[];
}

/** Errors that would fail every remaining document the same way. */
export const STOP_THE_RUN: ReadonlySet<string> = new Set([
  ErrorCode.STORE_UNAVAILABLE,
  ErrorCode.EMBEDDER_UNAVAILABLE,
  ErrorCode.EMBEDDER_REQUEST_REJECTED,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
]);

/** Adds one document's outcome to a run's summary. */
export function tally(summary: IngestSummary, sourcePath: string, outcome: DocumentOutcome): void {
  summary.documents[outcome.status]++;
  summary.chunks += outcome.chunks;
  summary.tokens += outcome.tokens;
  if (outcome.redactions.length > 0) {
    summary.redactions.push({
      sourcePath,
      rules: outcome.redactions.map((redaction) => redaction.rule),
      count: outcome.redactions.reduce((total, redaction) => total + redaction.count, 0),
    });
  }
}

/** Every run's outcome counts, whatever started it: the API, a CLI or a queued job. */
export function countIngest(summary: IngestSummary): void {
  for (const [outcome, count] of Object.entries(summary.documents)) {
    if (count > 0) ingestDocuments.inc({ outcome }, count);
  }
  ingestChunks.inc(summary.chunks);
}

export function emptySummary(workspaceId: string): IngestSummary {
  return {
    workspaceId,
    files: 0,
    documents: { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 },
    chunks: 0,
    tokens: 0,
    seconds: 0,
    chunksPerSecond: 0,
    corpusVersion: 0,
    failures: [],
    redactions: [],
  };
}
