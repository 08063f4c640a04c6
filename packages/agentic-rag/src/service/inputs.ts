import { z } from 'zod';
import { WORKSPACE_ID_PATTERN } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { MAX_QUERY_LENGTH, parseFilters, type RetrievalFilters } from '../retrieve/index.js';

/**
 * Input checks every transport shares: GraphQL, REST, MCP and the CLIs hand the service what the
 * caller sent, and the same bad value gets the same INVALID_INPUT message whichever way it came.
 */

/** A string no stored row, log line or SQL parameter chokes on: no NUL, no lone surrogate. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
// With the u flag a pair is one code point, so only an unpaired half is a Surrogate.
const LONE_SURROGATE = /\p{Surrogate}/u;

const cleanText = (name: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`),
    })
    .refine(isCleanText, {
      error: `${name} must not contain NUL characters or unpaired surrogates`,
      abort: true,
    });

/** A workspace id, checked once: later code takes the brand as proof. */
export const WorkspaceIdSchema = z
  .string({ error: 'workspaceId must be a string' })
  .regex(WORKSPACE_ID_PATTERN, {
    error: 'workspaceId must be letters, digits, _ . - (1-64 characters, starting with a letter or digit)',
  })
  .brand<'WorkspaceId'>();
export type WorkspaceId = z.output<typeof WorkspaceIdSchema>;

/** A key's scope: one workspace or every one. */
export const ScopeSchema = z.union([z.literal('*'), WorkspaceIdSchema]);

/** Free text a caller types (a question, a search): trimmed, non-empty, bounded, clean. */
export const queryText = (name = 'query', max = MAX_QUERY_LENGTH) =>
  cleanText(name)
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` });

/** An identifier-like string (a document id, an entity id): bounded and clean. */
export const idText = (name: string, max = 2000) =>
  cleanText(name)
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` });

/** Document bodies: clean, and at most 10 MB each. */
export const contentText = (name: string) =>
  cleanText(name).max(10_000_000, { error: `${name} must be at most 10,000,000 characters` });

export const integer = (name: string, min: number, max: number) => {
  const error = `${name} must be an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
};

/**
 * The corpus version a read must see at least: a write's `corpusVersion`, passed back by a client
 * that wants to read its own write on whichever API process (and database replica) answers.
 */
export const corpusVersionInput = (name = 'minCorpusVersion') => integer(name, 0, Number.MAX_SAFE_INTEGER);

/** Search filters, parsed once (retrieve/filters.ts owns their meaning). */
export const FiltersSchema = z.unknown().transform((value, context): RetrievalFilters => {
  const dirty = firstDirtyString(value);
  if (dirty !== null) {
    context.addIssue({
      code: 'custom',
      message: `filters.${dirty} must not contain NUL characters or unpaired surrogates`,
    });
    return z.NEVER;
  }
  try {
    return parseFilters(value);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** The path (a.b.0) of the first string inside a JSON value that is not clean text, or null. */
export function firstDirtyString(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isCleanText(value) ? null : path || 'value';
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstDirtyString(item, path ? `${path}.${index}` : String(index));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isCleanText(key)) return path ? `${path}.?` : '?';
      const found = firstDirtyString(item, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Parses `value` with `schema`, or throws INVALID_INPUT naming every problem. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RagError(ErrorCode.INVALID_INPUT, parsed.error.issues.map(describeIssue).join('; '));
}

/** A zod issue as a sentence about the argument; the schemas above word most of them already. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${keys}${where ? ` in ${where}` : ''}`;
  }
  const own =
    where === '' ||
    issue.message.startsWith(where.split('.').at(-1)!) ||
    issue.message.startsWith(where.split('.')[0]!);
  return own ? issue.message : `${where}: ${issue.message}`;
}
