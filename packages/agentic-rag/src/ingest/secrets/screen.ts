import { ErrorCode, RagError } from '../../errors/index.js';
import type { Logger } from '../../telemetry/index.js';
import type { LoadedDocument } from '../document.js';
import { findSecrets, redactSecrets, type SecretRedaction } from './scanner.js';

/** What ingest does with a document that holds a secret (`INGEST_SECRETS`). */
export type SecretsMode = 'redact' | 'refuse' | 'off';

export type Screened =
  | { outcome: 'clean'; document: LoadedDocument }
  /** The document with every secret replaced and `metadata.redactions` set. */
  | { outcome: 'redacted'; document: LoadedDocument; redactions: SecretRedaction[] }
  /** Rule names only: the secrets themselves go nowhere. `inId`: the document's id holds one. */
  | { outcome: 'refused'; rules: string[]; inId?: true };

/**
 * A loaded document checked for secrets before anything is chunked, embedded or stored: its text,
 * title, embedding text and metadata strings. `redact` cuts each secret out (block offsets follow
 * the shortened text); `refuse` names the rules that fired; `off` passes it through.
 */
export async function screenDocument(document: LoadedDocument, mode: SecretsMode): Promise<Screened> {
  if (mode === 'off') return { outcome: 'clean', document };
  // A secret in the id (a file named after a token) would be every citation's sourceId on every
  // read path, and an id cannot be redacted without changing what it names: refused in any mode.
  const inId = await findSecrets(document.sourcePath);
  if (inId.length > 0)
    return { outcome: 'refused', rules: [...new Set(inId.map((finding) => finding.rule))], inId: true };
  const counts = new Map<string, number>();
  const redact = async (value: string): Promise<string> => {
    const findings = await findSecrets(value);
    if (findings.length === 0) return value;
    const redacted = redactSecrets(value, findings);
    for (const { rule, count } of redacted.redactions) counts.set(rule, (counts.get(rule) ?? 0) + count);
    return redacted.text;
  };

  const textFindings = await findSecrets(document.text);
  const text = redactSecrets(document.text, textFindings);
  for (const { rule, count } of text.redactions) counts.set(rule, (counts.get(rule) ?? 0) + count);
  const title = document.title === null ? null : await redact(document.title);
  const embeddingText =
    document.embeddingText === undefined ? undefined : await redact(document.embeddingText);
  const metadata = (await redactStrings(document.metadata, redact)) as Record<string, unknown>;

  if (counts.size === 0) return { outcome: 'clean', document };
  const redactions = [...counts].map(([rule, count]) => ({ rule, count }));
  if (mode === 'refuse') return { outcome: 'refused', rules: redactions.map((redaction) => redaction.rule) };
  return {
    outcome: 'redacted',
    redactions,
    document: {
      ...document,
      text: text.text,
      title,
      blocks: document.blocks.map((block) => ({
        ...block,
        start: text.mapOffset(block.start, 'start'),
        end: text.mapOffset(block.end, 'end'),
      })),
      ...(document.pages
        ? { pages: document.pages.map((page) => ({ ...page, start: text.mapOffset(page.start, 'start') })) }
        : {}),
      metadata: { ...metadata, redactions },
      ...(embeddingText === undefined ? {} : { embeddingText }),
    },
  };
}

/** A copy of a JSON-like value with `redact` applied to every string in it. */
async function redactStrings(value: unknown, redact: (text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return Promise.all(value.map((item) => redactStrings(item, redact)));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await redactStrings(item, redact)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * The document as it may enter the store: its secrets redacted, or a SECRET_REFUSED error that
 * names the rules (never the secret). Runs before hashing, so the stored hash is of what is stored.
 */
export async function screenForIngest(
  document: LoadedDocument,
  mode: SecretsMode,
  logger: Logger,
): Promise<{ document: LoadedDocument; redactions: SecretRedaction[] }> {
  const screened = await screenDocument(document, mode);
  if (screened.outcome === 'clean') return { document: screened.document, redactions: [] };
  if (screened.outcome === 'refused' && screened.inId) {
    // The id itself is what must not be repeated: in the log, the failure, the job's record.
    const sourcePath = redactSecrets(document.sourcePath, await findSecrets(document.sourcePath)).text;
    logger.warn('document refused: its id holds a secret', {
      event: 'secrets-refused',
      sourcePath,
      rules: screened.rules,
    });
    throw new RagError(
      ErrorCode.SECRET_REFUSED,
      `document not stored: its id holds a secret (${screened.rules.join(', ')}); rename the file, or give the document another id`,
      { details: { sourcePath } },
    );
  }
  if (screened.outcome === 'refused') {
    logger.warn('document refused: it holds secrets', {
      event: 'secrets-refused',
      sourcePath: document.sourcePath,
      rules: screened.rules,
    });
    throw new RagError(
      ErrorCode.SECRET_REFUSED,
      `document not stored: it holds secrets (${screened.rules.join(', ')}); remove them, or ingest with secrets redacted`,
    );
  }
  logger.warn('secrets redacted', {
    event: 'secrets-redacted',
    sourcePath: document.sourcePath,
    redactions: screened.redactions,
  });
  return { document: screened.document, redactions: screened.redactions };
}
