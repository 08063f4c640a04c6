/** What a redacted value is replaced with, so a reader sees that something was there. */
export const REDACTED = '[REDACTED]';

/**
 * Field names whose values are secrets whatever they hold, compared without case, `_` or `-`:
 * `apiKey`, `API_KEY` and `x-api-key` are one name. A name also counts when it ends with one of
 * these (`RAG_LLM_API_KEY`, `githubToken`), but `tokens` and `tokenCount` are counts and do not.
 */
const SECRET_NAMES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'authorization',
  'cookie',
  'setcookie',
  'credentials',
  'privatekey',
];

/**
 * Secrets and personal data inside free text: messages, error messages, queries. Each pattern
 * keeps what says what was there (`Bearer`, `password=`) and hides the value.
 */
const TEXT_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // A private key block, whole (or to the end of the text when it is cut off).
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // The user-info of a URL (postgres://rag:secret@db) before the e-mail pattern sees `secret@db`.
  [/(\/\/[^/@\s:]*:)[^/@\s]+@/g, `$1${REDACTED}@`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${REDACTED}`],
  [
    /\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&,;"']+)/gi,
    `$1$2${REDACTED}`,
  ],
  // "my password is hunter2": prose, as in notes given to the knowledge structurer.
  [/\b(password|passwd)(\s+is\s+)("[^"]*"|'[^']*'|[^\s&,;"']+)/gi, `$1$2${REDACTED}`],
  // Provider key formats: OpenAI (sk-, sk-proj-), GitHub, Slack, AWS access key ids, JWTs.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{16,}/g, REDACTED],
  [/\bxox[abpors]-[A-Za-z0-9-]{8,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
  // Not after `//`: `redis://default@cache.internal` names a user and a host, not a person.
  [/(?<![A-Za-z0-9._%+/-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, REDACTED],
];

const MAX_DEPTH = 8;

export function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, '');
  return SECRET_NAMES.some((secret) => normalized === secret || normalized.endsWith(secret));
}

export function redactText(text: string): string {
  let result = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/**
 * A copy of a log entry's fields that is safe to write: secret-named fields replaced at any depth,
 * strings scrubbed, errors reduced to name, code and scrubbed message (no stack: a log line is
 * not a debugger, and stacks leak paths).
 */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return redactValue(fields, 0, new WeakSet()) as Record<string, unknown>;
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (value instanceof Error) {
      const code = (value as { code?: unknown }).code;
      return {
        name: value.name,
        message: redactText(value.message),
        ...(code === undefined ? {} : { code }),
      };
    }
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] =
        isSecretName(key) && item !== undefined && item !== null
          ? REDACTED
          : redactValue(item, depth + 1, seen);
    }
    return copy;
  } finally {
    // A value reached twice along different branches is not a cycle: only ancestors count.
    seen.delete(value);
  }
}
