import type { z } from 'zod';
import { ErrorCode, RagError } from '@agentic-rag/core';

/**
 * JSON lines checked line by line against a schema, ids unique. Every problem is reported with its
 * line number, all at once, so a hand-edited file can be fixed in one pass.
 */
export function parseJsonLines<T extends { id: string }>(
  text: string,
  /** Where the lines come from, for the line references (a file name). */
  name: string,
  /** What they are, for the message ("golden set"). */
  label: string,
  schema: z.ZodType<T>,
  check: (row: T, at: string) => string | null = () => null,
): T[] {
  const rows: T[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const at = `${name}:${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      problems.push(`${at}: not JSON`);
      return;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(`${at}: ${issue.path.join('.') || 'line'}: ${issue.message}`);
      return;
    }
    if (ids.has(parsed.data.id)) problems.push(`${at}: duplicate id "${parsed.data.id}"`);
    ids.add(parsed.data.id);
    const problem = check(parsed.data, at);
    if (problem) problems.push(problem);
    rows.push(parsed.data);
  });
  if (problems.length > 0)
    throw new RagError(ErrorCode.INVALID_INPUT, `invalid ${label}:\n  ${problems.join('\n  ')}`, {
      details: { problems },
    });
  return rows;
}
