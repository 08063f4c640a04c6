import { ErrorCode, RagError } from '../errors/index.js';

/** What a key may do: read (search, answer), write (ingest, delete), administer (keys). */
export type Role = 'reader' | 'writer' | 'admin';

/** Ordered weakest first: each role allows everything the roles before it allow. */
export const ROLES: readonly Role[] = Object.freeze(['reader', 'writer', 'admin'] as const);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether a key with `role` may do what needs `needed`. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** A role from user input (a CLI flag, a mutation's argument), or INVALID_INPUT naming the choices. */
export function parseRole(value: unknown): Role {
  if (isRole(value)) return value;
  throw new RagError(
    ErrorCode.INVALID_INPUT,
    `role "${String(value)}" is invalid: expected one of ${ROLES.join(', ')}`,
    {
      details: { role: String(value) },
    },
  );
}
