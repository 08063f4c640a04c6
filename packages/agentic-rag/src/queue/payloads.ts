import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { WORKSPACE_ID_PATTERN } from '../config/index.js';

const workspaceId = z.string().regex(WORKSPACE_ID_PATTERN);
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** W3C trace context of the request that enqueued the job. */
const traceContext = z.record(z.string(), z.string()).default({});

/** Steps of a big document that were handed to stage jobs: the parent does not split twice. */
export const SPLIT_STEPS = ['hyde', 'embed'] as const;

/**
 * Ingest one document, read from a file of a folder (the identity a whole-folder ingest gives it)
 * or given inline. Validated when enqueued and again by the worker, which may be a different
 * version of the code.
 */
export const ingestDocumentPayload = z.object({
  kind: z.literal('ingest-document'),
  workspaceId,
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('file'), root: z.string().min(1), relativePath: z.string().min(1) }),
    z.object({ type: z.literal('inline'), id: z.string().min(1).max(1024), content: z.string() }),
  ]),
  /** sha256 of the bytes enqueued: part of the idempotency key. */
  contentHash: sha256Hex,
  /**
   * The document's generation when it was queued (see store/intents.ts): part of the idempotency
   * key, and checked again when the job writes. Jobs queued before generations existed are 0.
   */
  generation: z.number().int().min(0).default(0),
  trace: traceContext,
  split: z.array(z.enum(SPLIT_STEPS)).default([]),
});

/** What every stage job of a document carries: whose work it is, and which batch of it. */
const stageFields = {
  workspaceId,
  /** The document's source path, as stored. */
  document: z.string().min(1),
  /** The document's content hash: a changed document's stage jobs are other jobs. */
  contentHash: sha256Hex,
  batch: z.number().int().min(0),
  trace: traceContext,
};

/** Embed a batch of a document's chunk texts into the embedding cache. */
export const embedChunksPayload = z.object({
  kind: z.literal('embed-chunks'),
  ...stageFields,
  texts: z.array(z.string()).min(1),
});

/** Write HyDE questions for a batch of a document's chunks into the stage cache. */
export const hydePayload = z.object({
  kind: z.literal('hyde'),
  ...stageFields,
  texts: z.array(z.string()).min(1),
});

/** Run every entity extractor over a document, facts into the stage cache. */
export const extractEntitiesPayload = z.object({
  kind: z.literal('extract-entities'),
  ...stageFields,
  input: z.object({
    text: z.string(),
    title: z.string().nullable(),
    kind: z.string(),
    sourcePath: z.string(),
  }),
});

export const jobPayload = z.discriminatedUnion('kind', [
  ingestDocumentPayload,
  embedChunksPayload,
  hydePayload,
  extractEntitiesPayload,
]);

export type IngestDocumentPayload = z.output<typeof ingestDocumentPayload>;
export type StageJobPayload = z.output<
  typeof embedChunksPayload | typeof hydePayload | typeof extractEntitiesPayload
>;
export type JobPayload = z.output<typeof jobPayload>;
export const JOB_KINDS = ['ingest-document', 'embed-chunks', 'hyde', 'extract-entities'] as const;

/** The document a payload is about: `<folder>\0<path>` or the inline id for an ingest, else its path. */
export function documentOf(payload: JobPayload): string {
  if (payload.kind !== 'ingest-document') return payload.document;
  const { source } = payload;
  return source.type === 'file' ? `${source.root}\u0000${source.relativePath}` : source.id;
}

/** How a person names the document: the file's path or the inline id. */
export function documentLabel(payload: JobPayload): string {
  if (payload.kind !== 'ingest-document') return payload.document;
  return payload.source.type === 'file' ? payload.source.relativePath : payload.source.id;
}

/**
 * What rag_document_intents calls the document a job ingests: the name a whole-folder ingest
 * gives the file (`<folder>/<path>`), or the inline id as the store will name it.
 */
export function intentDocument(payload: IngestDocumentPayload): string {
  const { source } = payload;
  if (source.type === 'file') return `${path.basename(path.resolve(source.root))}/${source.relativePath}`;
  return source.id.replace(/\\/g, '/').replace(/^\/+/, '');
}

/**
 * The BullMQ job id, so enqueueing the same intent twice is one job: workspace + document +
 * content hash + kind, and the generation for a document (a delete, or other bytes in between,
 * make the same bytes a new job) or the batch for a stage job (whose output is content-addressed).
 */
export function idempotencyKey(payload: JobPayload): string {
  const parts = [payload.workspaceId, documentOf(payload), payload.contentHash, payload.kind];
  if (payload.kind === 'ingest-document') {
    if (payload.generation > 0) parts.push(`generation ${payload.generation}`);
  } else parts.push(String(payload.batch));
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** What rag_jobs keeps of a payload: never a whole inline document, chunk texts or extraction input. */
export function payloadSummary(payload: JobPayload): Record<string, unknown> {
  switch (payload.kind) {
    case 'ingest-document': {
      const { source } = payload;
      return {
        ...payload,
        source:
          source.type === 'file'
            ? source
            : { type: 'inline', id: source.id, bytes: Buffer.byteLength(source.content) },
      };
    }
    case 'embed-chunks':
    case 'hyde': {
      const { texts, ...rest } = payload;
      return { ...rest, texts: texts.length };
    }
    case 'extract-entities': {
      const { input, ...rest } = payload;
      return { ...rest, bytes: Buffer.byteLength(input.text) };
    }
  }
}
