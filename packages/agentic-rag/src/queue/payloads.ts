import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The one job kind the data plane runs today: ingest one document, read from a file of a folder
 * (the identity a whole-folder ingest gives it) or given inline. Validated when enqueued and
 * again by the worker, which may be a different version of the code.
 */
export const ingestDocumentPayload = z.object({
  kind: z.literal('ingest-document'),
  workspaceId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
  source: z.discriminatedUnion('type', [
    z.object({ type: z.literal('file'), root: z.string().min(1), relativePath: z.string().min(1) }),
    z.object({ type: z.literal('inline'), id: z.string().min(1).max(1024), content: z.string() }),
  ]),
  /** sha256 of the bytes enqueued: part of the idempotency key. */
  contentHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** W3C trace context of the request that enqueued the job. */
  trace: z.record(z.string(), z.string()).default({}),
});

export type IngestDocumentPayload = z.output<typeof ingestDocumentPayload>;
export const JOB_KINDS = ['ingest-document'] as const;

/** The document a payload is about, as its id reads: `<folder>/<path>` or the inline id. */
export function documentOf(payload: IngestDocumentPayload): string {
  const { source } = payload;
  return source.type === 'file' ? `${source.root}\u0000${source.relativePath}` : source.id;
}

/**
 * workspace + document + content hash + kind: the BullMQ job id, so enqueueing the same bytes
 * twice is one job. A changed file has another hash and is another job.
 */
export function idempotencyKey(payload: IngestDocumentPayload): string {
  return createHash('sha256')
    .update([payload.workspaceId, documentOf(payload), payload.contentHash, payload.kind].join('\u0000'))
    .digest('hex');
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
