import { ErrorCode, RagError } from '@agentic-rag/core';

/** A client mistake, answered as a 400 with the contract's wording. */
export const invalid = (detail: string) => new RagError(ErrorCode.INVALID_INPUT, detail);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields the route does not know are an error too: a typo must not be silently ignored. */
export function assertKnownFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    throw invalid(`field '${unknown[0]}' is not supported (fields: ${known.join(', ')})`);
}

/** `traverse_types`: absent means all of them; otherwise a non-empty list of known ones. */
export function traverseTypes<T extends string>(value: unknown, allowed: readonly T[]): ReadonlySet<T> {
  if (value === undefined) return new Set(allowed);
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(`traverse_types must be a non-empty list of ${allowed.join(', ')}`);
  const unknown = value.find((type) => !allowed.includes(type as T));
  if (unknown !== undefined)
    throw invalid(`traverse type '${String(unknown)}' is not supported (one of ${allowed.join(', ')})`);
  return new Set(value as T[]);
}
