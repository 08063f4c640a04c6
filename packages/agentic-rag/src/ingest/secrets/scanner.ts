import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from '@secretlint/types';
import { OWN_RULES } from './own-rules.js';

// secretlint marks every rule run on a process-wide profiler that keeps every mark forever and
// searches them on each new one: a long-running server got slower with every document (the API
// sample's ingest 2 s without scanning, 21 s with) and never gave the memory back. Its marks are
// for secretlint's own CLI timing; nothing here reads them.
secretLintProfiler.mark = () => {};

/** Where a secret is in a text, and which rule found it. Never the secret itself. */
export interface SecretFinding {
  /** Short rule name: `aws`, `privatekey`, `github`, `stripe`, ... */
  rule: string;
  start: number;
  end: number;
}

export interface SecretRedaction {
  rule: string;
  count: number;
}

export interface Redacted {
  text: string;
  redactions: SecretRedaction[];
  /** Maps an offset of the original text to the redacted one (`start`: a cut span maps to its start). */
  mapOffset: (offset: number, bias: 'start' | 'end') => number;
}

const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';

/**
 * secretlint's recommended preset, as a library (no config file is read). AWS access key ids are
 * reported too (the preset leaves them off by default), and the comment filter is off: a document
 * must not be able to switch the scan off with `secretlint-disable`.
 */
const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: PRESET_ID,
      rule: recommended,
      rules: [
        { id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } },
        { id: '@secretlint/secretlint-rule-filter-comments', disabled: true },
      ],
    },
  ],
};

/** Rules whose finding is a whole URL: only the password in it is the secret. */
const URL_RULES = new Set(['database-connection-string', 'basicauth', 'url-password']);
const URL_USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:([^\s/@]+)@/i;

/**
 * `${DB_PASSWORD}`, `<password>`, `{{ pass }}`, `%s`, `****`, `PASSWORD`, `[:password]`: a template,
 * not a value. A URL's userinfo cannot hold a bracket, so one is a syntax summary's notation.
 */
function isPlaceholder(value: string): boolean {
  if (/[[\]]/.test(value)) return true;
  return (
    /^(\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|<.*>|\{\{.*\}\}|\{.*\}|%[sd]|\*+|x+|\.+)$/i.test(value) ||
    /^[A-Z][A-Z0-9_]*$/.test(value) ||
    /^(password|passwd|pass|secret|changeme)$/i.test(value)
  );
}

/**
 * Every secret in `text`: secretlint's recommended rules, then the few formats it lacks
 * (`own-rules.ts`), then the same rules over two other readings of the text: with line breaks
 * inside long tokens joined (a key wrapped onto two lines) and inside base64 runs that decode to
 * text (a key encoded to hide it). Spans are exact and in `text`'s own offsets (a wrapped key's
 * span covers its line break, an encoded key's its whole run), and a secret found once is found
 * wherever else it appears in the text.
 */
export async function findSecrets(text: string): Promise<SecretFinding[]> {
  if (text.length === 0) return [];
  const found = [...(await scan(text)), ...(await acrossLineBreaks(text)), ...(await encoded(text))];
  return withRepeats(text, found);
}

/** One reading of a text through every rule. */
async function scan(text: string): Promise<SecretFinding[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'document.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const found: SecretFinding[] = [];
  for (const message of result.messages) {
    const span = spanOf(text, message);
    if (span) found.push(span);
  }
  for (const { name, pattern, accept } of OWN_RULES) {
    for (const match of text.matchAll(pattern)) {
      if (accept && !accept(match)) continue;
      const secret = match.groups?.secret ?? match[0];
      const start = match.index + (match.groups?.secret ? match[0].lastIndexOf(secret) : 0);
      found.push({ rule: name, start, end: start + secret.length });
    }
  }
  return found.flatMap((finding) => narrow(text, finding));
}

/** A line break (and the next line's indent) between two runs of key characters. */
const WRAP = /(?<=[A-Za-z0-9_+/=-]{12})\r?\n[ \t]*(?=[A-Za-z0-9_+/=-]{4})/g;

/**
 * Secrets wrapped onto two lines: the text with each break inside a long run of key characters
 * joined is read again, and what is found across a join is mapped back over the break.
 */
async function acrossLineBreaks(text: string): Promise<SecretFinding[]> {
  const joins: Array<{ at: number; removed: number }> = [];
  let joined = '';
  let from = 0;
  for (const match of text.matchAll(WRAP)) {
    // Only a break after a run that mixes letters and digits can cut a key.
    const before =
      /[A-Za-z0-9_+/=-]+$/.exec(text.slice(Math.max(0, match.index - 200), match.index))?.[0] ?? '';
    if (!/\d/.test(before) || !/[A-Za-z]/.test(before)) continue;
    joined += text.slice(from, match.index);
    joins.push({ at: joined.length, removed: match[0].length });
    from = match.index + match[0].length;
  }
  if (joins.length === 0) return [];
  joined += text.slice(from);
  const original = (offset: number, inclusive: boolean) =>
    offset +
    joins
      .filter((join) => (inclusive ? join.at <= offset : join.at < offset))
      .reduce((total, join) => total + join.removed, 0);
  return (await scan(joined))
    .filter((finding) => joins.some((join) => finding.start < join.at && join.at < finding.end))
    .map((finding) => ({
      ...finding,
      start: original(finding.start, true),
      end: original(finding.end, false),
    }));
}

/** A run of base64 long enough to hold a key. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{24,8192}={0,2}(?![A-Za-z0-9+/=_-])/g;
const MAX_ENCODED_RUNS = 256;

/** Base64 runs that decode to text holding a secret: the whole run is the secret. */
async function encoded(text: string): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  let runs = 0;
  for (const match of text.matchAll(BASE64_RUN)) {
    if (++runs > MAX_ENCODED_RUNS) break;
    const decoded = Buffer.from(match[0], 'base64').toString('latin1');
    // Binary (an image, a hash) is not a hidden text; only printable ASCII is read again.
    if (decoded.length < 16 || !/^[\x20-\x7e\t\r\n]+$/.test(decoded)) continue;
    const inner = await scan(decoded);
    if (inner.length > 0)
      found.push({ rule: inner[0]!.rule, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/**
 * The span a secretlint message points at. Some rules report a range that is off from the value
 * they name (the AWS secret-key rule gives the match's start with the value's length), so when the
 * message names a value found in the text, the occurrence nearest the range is the span.
 */
function spanOf(text: string, message: SecretLintCoreResultMessage): SecretFinding | null {
  const rule = message.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  const [start, end] = message.range;
  const values = Object.values(message.data ?? {}).filter(
    (value): value is string => typeof value === 'string' && value.length >= 8,
  );
  let best: SecretFinding | null = null;
  for (const value of values) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      const distance = Math.abs(at - start);
      if (distance > 512) continue;
      if (
        !best ||
        distance < Math.abs(best.start - start) ||
        (at === best.start && value.length > best.end - at)
      )
        best = { rule, start: at, end: at + value.length };
    }
  }
  if (best) return best;
  return end > start ? { rule, start, end } : null;
}

/** A URL's password rather than the whole URL; nothing when the password is a placeholder. */
function narrow(text: string, finding: SecretFinding): SecretFinding[] {
  if (!URL_RULES.has(finding.rule)) return [finding];
  const span = text.slice(finding.start, finding.end);
  const userinfo = URL_USERINFO.exec(span);
  const password = userinfo?.[1];
  if (userinfo && password) {
    if (isPlaceholder(password)) return [];
    const start = finding.start + userinfo[0].length - 1 - password.length;
    return [{ rule: finding.rule, start, end: start + password.length }];
  }
  // A reported span without the scheme (`login:<password>@`): its password is what follows the last ':'.
  const bare = /:([^\s:/@]+)@/.exec(span);
  if (bare?.[1] && isPlaceholder(bare[1])) return [];
  if (finding.rule === 'url-password' && isPlaceholder(span)) return [];
  // A URL without a password (postgres://user@host/db) holds no secret.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(span) ? [] : [finding];
}

/** One finding per span (the first rule to report it names it), every other occurrence of each secret added, sorted. */
function withRepeats(text: string, findings: SecretFinding[]): SecretFinding[] {
  const known = new Set<string>();
  const all: SecretFinding[] = [];
  for (const finding of findings) {
    const key = `${finding.start}:${finding.end}`;
    if (!known.has(key)) all.push(finding);
    known.add(key);
  }
  for (const finding of [...all]) {
    const secret = text.slice(finding.start, finding.end);
    if (secret.length < 8) continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      const key = `${at}:${at + secret.length}`;
      if (known.has(key)) continue;
      known.add(key);
      all.push({ rule: finding.rule, start: at, end: at + secret.length });
    }
  }
  return all.sort((left, right) => left.start - right.start || right.end - left.end);
}

/**
 * `text` with each secret replaced by `[REDACTED:<rule>]`. Overlapping findings are one cut,
 * named by the first (widest) of them; `redactions` counts cuts per rule.
 */
export function redactSecrets(text: string, findings: readonly SecretFinding[]): Redacted {
  const cuts: SecretFinding[] = [];
  for (const finding of [...findings].sort(
    (left, right) => left.start - right.start || right.end - left.end,
  )) {
    const last = cuts[cuts.length - 1];
    if (last && finding.start < last.end) last.end = Math.max(last.end, finding.end);
    else cuts.push({ ...finding });
  }
  let redactedText = '';
  let from = 0;
  const edits: Array<{ start: number; end: number; newStart: number; newEnd: number }> = [];
  const counts = new Map<string, number>();
  for (const cut of cuts) {
    redactedText += text.slice(from, cut.start);
    const replacement = `[REDACTED:${cut.rule}]`;
    edits.push({
      start: cut.start,
      end: cut.end,
      newStart: redactedText.length,
      newEnd: redactedText.length + replacement.length,
    });
    redactedText += replacement;
    from = cut.end;
    counts.set(cut.rule, (counts.get(cut.rule) ?? 0) + 1);
  }
  redactedText += text.slice(from);
  const mapOffset = (offset: number, bias: 'start' | 'end'): number => {
    let shift = 0;
    for (const edit of edits) {
      if (offset <= edit.start) break;
      if (offset < edit.end) return bias === 'start' ? edit.newStart : edit.newEnd;
      shift = edit.newEnd - edit.end;
    }
    return offset + shift;
  };
  return {
    text: redactedText,
    redactions: [...counts].map(([rule, count]) => ({ rule, count })),
    mapOffset,
  };
}
