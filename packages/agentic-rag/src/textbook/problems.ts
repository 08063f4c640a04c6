import { ErrorCode, RagError } from '../errors/index.js';

/**
 * A client mistake, answered as a 400 with the contract's wording and its code: the contract names it
 * INVALID_PARAMETER (the other surfaces' INVALID_INPUT; docs/rest-contract.md).
 */
export const invalid = (detail: string) => new RagError(ErrorCode.INVALID_PARAMETER, detail);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields the route does not know are an error too: a typo must not be silently ignored. */
export function assertKnownFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    throw invalid(`field '${unknown[0]}' is not supported (fields: ${known.join(', ')})`);
}

/**
 * `traverse_types`: absent (or empty: a client that fills the optional field with nothing) means
 * all of them; otherwise a list of known ones, refused in the REST contract's words.
 */
export function traverseTypes<T extends string>(value: unknown, allowed: readonly T[]): ReadonlySet<T> {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
    return new Set(allowed);
  if (!Array.isArray(value)) throw invalid(`traverse_types must be a list of: ${allowed.join(', ')}`);
  const unknown = value.find((type) => !allowed.includes(type as T));
  if (unknown !== undefined)
    throw invalid(
      `traverse_types contains invalid value: '${typeof unknown === 'string' ? unknown : JSON.stringify(unknown)}'. Valid values: [${allowed.join(', ')}]`,
    );
  return new Set(value as T[]);
}
