import type { Span } from '../../facts.js';
import { entityKey } from '../../resolve.js';
import type { Collector } from './collector.js';
import { type Candidate, type CodeName } from './collector.js';
import { HTTP_METHOD_SET, METHOD_PATTERN, resourceOf, addEndpoint } from './endpoints.js';
import type { CodeSpan, Layout } from './layout.js';

/** Code names: identifiers, error codes, headers, schemas. */

const ERROR_SHAPE =
  /(?:^|_)(?:NOT_[A-Z]+|EXCEEDED|FAILED|FAILURE|UNAVAILABLE|REQUIRED|DENIED|LIMITED|ERROR|INVALID|CONFLICT|FORBIDDEN|TIMEOUT|REUSED|UNAUTHORI[SZ]ED)(?:_|$)|^(?:INVALID|INSUFFICIENT|DUPLICATE|UNAUTHORI[SZ]ED|FORBIDDEN)(?:_|$)/;
const HEADER_WORDS: ReadonlySet<string> = new Set([
  'After',
  'Key',
  'Version',
  'Type',
  'Id',
  'ID',
  'Limit',
  'Remaining',
  'Reset',
  'Signature',
  'Timestamp',
  'Agent',
  'Length',
  'Encoding',
  'Control',
  'Authorization',
  'Simulate',
  'Quotes',
  'Token',
]);
const FILE_EXTENSIONS =
  /\.(?:md|ya?ml|json|jsonl|ts|js|tsx|py|txt|html?|csv|pdf|png|jpe?g|svg|zpl|sql|sh|toml|lock)$/;

function isErrorShaped(name: string): boolean {
  return ERROR_SHAPE.test(name.toUpperCase());
}

/** The line around an offset, for context tests. */
function lineAround(text: string, start: number, end: number): { before: string; line: string } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : newline;
  return { before: text.slice(lineStart, start), line: text.slice(lineStart, lineEnd) };
}

/**
 * Whether a code name is used as an error code where it stands: right after a 4xx/5xx status
 * ("409 CARRIER_SUSPENDED"), after the words "error code", or in a table row with a 4xx/5xx cell.
 */
function inErrorContext(text: string, start: number, end: number): boolean {
  const { before, line } = lineAround(text, start, end);
  if (/\b[45]\d\d\s*`?\s*$/.test(before) || /\berror codes?\s*`?\s*$/i.test(before)) return true;
  if (!line.trimStart().startsWith('|')) return false;
  // In a table, the name must be its cell's whole content: a remedy column mentioning a field
  // in the same row does not make the field an error code.
  const cells = line.split('|').map((cell) => cell.trim().replace(/^`|`$/g, ''));
  return cells.includes(text.slice(start, end)) && cells.some((cell) => /^[45]\d\d$/.test(cell));
}

/** Whether a PascalCase code name is called a schema, object, model or type nearby. */
function inSchemaContext(text: string, start: number, end: number): boolean {
  const window = text.slice(Math.max(0, start - 60), Math.min(text.length, end + 60));
  return /\b(?:schemas?|objects?|models?|types?|components?|\$ref)\b/i.test(window);
}

/** Alert, metric and class names share PascalCase with schemas; their line says which they are. */
function inNonSchemaContext(text: string, start: number, end: number): boolean {
  const { line } = lineAround(text, start, end);
  return /\b(?:alerts?|alarms?|metrics?|dashboards?|class(?:es)?|functions?|methods?|panels?)\b/i.test(line);
}

export function codeName(
  text: string,
  name: string,
  span: Span,
  shape: CodeName['shape'],
  properties?: Record<string, unknown>,
): CodeName {
  const errorContext =
    shape === 'snake' || shape === 'word'
      ? isErrorShaped(name) || inErrorContext(text, span.start, span.end)
      : false;
  // A multi-word PascalCase code name is a schema unless its line says it is something else.
  const schemaContext =
    shape === 'pascal'
      ? !/\d/.test(name) && !inNonSchemaContext(text, span.start, span.end)
      : shape === 'pascal-word' && inSchemaContext(text, span.start, span.end);
  return properties
    ? { name, span, shape, errorContext, schemaContext, properties }
    : { name, span, shape, errorContext, schemaContext };
}

/** Classifies one inline code span by its shape; anything unrecognised is skipped. */
export function scanCodeSpan(text: string, span: CodeSpan, collector: Collector): void {
  const { inner, innerStart } = span;
  const at = (offset: number, length: number): Span => ({
    start: innerStart + offset,
    end: innerStart + offset + length,
  });
  const whole = at(0, inner.length);

  const endpoint = new RegExp(`^(${METHOD_PATTERN})\\s+(\\/[^\\s?#]*)(?:[?#]\\S*)?$`).exec(inner);
  if (endpoint) {
    const pathStart = innerStart + inner.indexOf(endpoint[2]!, endpoint[1]!.length);
    addEndpoint(collector, endpoint[1]!, endpoint[2]!, whole, { path: endpoint[2]!, start: pathStart });
    return;
  }
  const statusCode = /^([1-5]\d\d)\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)$/.exec(inner);
  if (statusCode) {
    const status = Number(statusCode[1]);
    const name = statusCode[2]!;
    if (status >= 400 && (name.includes('_') || name.length >= 4)) {
      const nameSpan = at(inner.length - name.length, name.length);
      collector.addCodeName({
        ...codeName(text, name, nameSpan, name.includes('_') ? 'snake' : 'word', { httpStatus: status }),
        errorContext: true,
      });
    }
    return;
  }
  if (/^[A-Z]{2,5}-\d{3,}$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'other'));
    return;
  }
  const header = /^([A-Z][A-Za-z0-9]*(?:-[A-Z0-9][A-Za-z0-9]*)+)(?::\s.*)?$/.exec(inner);
  if (header) {
    collector.addCodeName(codeName(text, header[1]!, at(0, header[1]!.length), 'other'));
    return;
  }
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'snake'));
    return;
  }
  if (/^[A-Z][A-Z0-9]{2,}$/.test(inner) && /[A-Z]{2}/.test(inner)) {
    if (!HTTP_METHOD_SET.has(inner)) collector.addCodeName(codeName(text, inner, whole, 'word'));
    return;
  }
  // A metric with its labels: the metric is the name.
  const metric = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\{.*\}$/.exec(inner);
  if (metric) {
    collector.addCodeName(codeName(text, metric[1]!, at(0, metric[1]!.length), 'snake'));
    return;
  }
  if (/^[a-z][a-z0-9]*(?:_[A-Za-z0-9]+)+$/.test(inner) || /^[a-z]{2,}_$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'snake'));
    return;
  }
  const call = /^([A-Za-z_][\w]*)\(\)$/.exec(inner);
  const callee = call?.[1];
  if (callee !== undefined && /[A-Z_]/.test(callee.slice(1))) {
    collector.addCodeName(codeName(text, callee, at(0, callee.length), 'other'));
    return;
  }
  // Schema.field is a Field, named as the OpenAPI loader names fields.
  if (/^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*\.[a-z_][a-z0-9_]*$/.test(inner)) {
    collector.add({ type: 'Field', name: inner, span: whole });
    return;
  }
  if (
    /^[A-Za-z_]\w*(?:\[[^\]]*\])?(?:\.[A-Za-z_]\w*(?:\[[^\]]*\])?)+$/.test(inner) &&
    !FILE_EXTENSIONS.test(inner)
  ) {
    collector.addCodeName(codeName(text, inner, whole, 'other'));
    return;
  }
  if (/^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'other'));
    return;
  }
  if (/^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'pascal'));
    return;
  }
  if (/^[A-Z][a-z]+$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'pascal-word'));
    return;
  }
  if (/^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+$/.test(inner)) {
    collector.addCodeName(codeName(text, inner, whole, 'other'));
    return;
  }
  // A bare API path names its collection; a method-less path is not an endpoint.
  if (/^\/[\w{}./-]*$/.test(inner) && !FILE_EXTENSIONS.test(inner)) {
    const resource = resourceOf(inner, innerStart);
    if (resource) collector.add({ type: 'Resource', name: resource.name, span: resource.span });
  }
}

/** Code names written without backticks: incident ids, snake_case, UPPER_SNAKE, event names, headers. */
export function scanProseCodeNames(layout: Layout, text: string, collector: Collector): void {
  const { prose } = layout;
  const add = (match: RegExpExecArray | RegExpMatchArray, shape: CodeName['shape']) => {
    const start = match.index!;
    const end = start + match[0].length;
    if (!collector.overlapsClaimed(start, end))
      collector.addCodeName(codeName(text, match[0], { start, end }, shape));
  };
  for (const match of prose.matchAll(/(?<![\w-])[A-Z]{2,5}-\d{3,}(?![\w-])/g)) add(match, 'other');
  for (const match of prose.matchAll(/(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])/g))
    add(match, 'snake');
  for (const match of prose.matchAll(/(?<![\w./-])[a-z][a-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/-])/g))
    add(match, 'snake');
  // Event names such as carrier.suspended: two lower-case words, neither a file extension nor a
  // domain (URLs and host names are already masked).
  for (const match of prose.matchAll(
    /(?<![\w./@-])[a-z]{3,}(?:_[a-z]+)*\.[a-z]{3,}(?:_[a-z]+)*(?![\w/@-]|\.\w)/g,
  )) {
    if (!FILE_EXTENSIONS.test(match[0])) add(match, 'other');
  }
  const backticked = new Set(collector.codeNames.map((name) => name.name));
  for (const match of prose.matchAll(/(?<![\w-])[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+(?![\w-])/g)) {
    const parts = match[0].split('-');
    const headerLike = parts[0] === 'X' || HEADER_WORDS.has(parts.at(-1)!);
    if (/[a-z]/.test(match[0]) && (backticked.has(match[0]) || headerLike)) add(match, 'other');
  }
  // Three or more humps is a code name even unquoted (an alert such as CarrierErrorRateHigh);
  // two humps is as often a brand (BlueLine, PagerDuty), left to the name scanner.
  for (const match of prose.matchAll(/(?<![\w-])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}(?![\w-])/g))
    add(match, 'pascal');
  // Names the document also writes as code (`ShipmentEvent`) keep their identity in prose.
  const distinctive = [...backticked].filter(
    (name) => /^[A-Za-z]\w*$/.test(name) && /[a-z][A-Z]|[A-Z].*[a-z].*[A-Z]/.test(name),
  );
  for (const name of distinctive) {
    for (const match of prose.matchAll(new RegExp(`(?<![\\w-])${name}(?![\\w-])`, 'g'))) {
      add(match, /^[A-Z]/.test(name) ? 'pascal' : 'other');
    }
  }
}

/** Settles each code name's type from all its mentions, so one name is one node. */
export function typeCodeNames(codeNames: readonly CodeName[]): Candidate[] {
  const byName = new Map<string, CodeName[]>();
  for (const codeName of codeNames) {
    const key = entityKey('Identifier', codeName.name);
    byName.set(key, [...(byName.get(key) ?? []), codeName]);
  }
  const candidates: Candidate[] = [];
  for (const mentions of byName.values()) {
    const pascal = mentions.some((mention) => mention.shape === 'pascal' || mention.shape === 'pascal-word');
    let type: string | null;
    if (pascal) {
      if (mentions.some((mention) => mention.schemaContext)) type = 'Schema';
      else type = mentions.some((mention) => mention.shape === 'pascal') ? 'Identifier' : null;
    } else {
      type = mentions.some((mention) => mention.errorContext) ? 'ErrorCode' : 'Identifier';
    }
    if (type === null) continue;
    for (const mention of mentions) {
      candidates.push(
        mention.properties
          ? { type, name: mention.name, span: mention.span, properties: mention.properties }
          : { type, name: mention.name, span: mention.span },
      );
    }
  }
  return candidates;
}
