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
