import { createHash } from 'node:crypto';

/** What identifies a cached answer: never shared across workspaces or corpus versions. */
export interface AnswerKey {
  workspaceId: string;
  corpusVersion: number;
  query: string;
  options: Record<string, unknown>;
}

/**
 * Answers keyed by workspace, corpus version, normalised query and options. A write to the
 * corpus bumps its version, so every older entry becomes unreachable at once and simply
 * expires; nothing has to find and delete them.
 */
export interface AnswerCache {
  readonly backend: 'postgres' | 'redis';
  get<T>(key: AnswerKey): Promise<T | null>;
  set(key: AnswerKey, value: unknown, ttlSeconds: number): Promise<void>;
  /** Drops every cached answer of a workspace (a cold evaluation run, an operator's purge); returns how many. */
  clear(workspaceId: string): Promise<number>;
  close(): Promise<void>;
}

/** Case and spacing do not change a question. */
export function normalizeQuery(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Stable JSON: object keys sorted, so {a, b} and {b, a} hash alike. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : 1))
      .map(([name, entry]) => `${JSON.stringify(name)}:${stable(entry)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `rag:answer:<workspace>:<version>:<sha256>`: readable prefix, fixed-length tail. */
export function cacheKey(key: AnswerKey): string {
  const digest = createHash('sha256')
    .update(stable({ query: normalizeQuery(key.query), options: key.options }))
    .digest('hex');
  return `rag:answer:${key.workspaceId}:${key.corpusVersion}:${digest}`;
}
