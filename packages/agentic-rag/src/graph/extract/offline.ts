/**
 * A deterministic entity extractor that needs no model: it reads the surface forms technical
 * writing uses to name things and links entities that share a paragraph.
 *
 * Precision comes first. Every rule accepts only shapes that are hard to produce by accident; a
 * missed entity costs recall a model-based extractor can add, a wrong one pollutes the graph for
 * every question that walks through it.
 *
 * What becomes what:
 * - Endpoint `POST /locations/{locationId}`: an HTTP method and a path, in a code span or plain
 *   text, or a `curl` command in fenced code (concrete ids become `{shipmentId}`-style
 *   parameters). A path without a method is not an endpoint: `/v2/locations` names the Resource
 *   `location`, and only when its first segment (after a version) is a plural word.
 * - Resource `location`: the first path segment, singular, as the OpenAPI loader names it, with a
 *   RESOURCE_HAS_ENDPOINT relation to each endpoint under it.
 * - ErrorCode `CARRIER_SUSPENDED` / Identifier: snake_case, UPPER_SNAKE, headers, event names,
 *   incident ids (`INC-2291`), camelCase and kebab-case names in code spans, plus the distinctive
 *   ones in plain text. A name is an ErrorCode when any mention is error-shaped (`*_NOT_FOUND`,
 *   `*_FAILED`, `rate_limit_exceeded`), follows a 4xx/5xx status, follows "error code", or is a
 *   table cell in a row with a 4xx/5xx cell; the type is settled per name for the whole document.
 * - Schema `ShipmentEvent`: a PascalCase code span (a single word only next to "schema", "object",
 *   "type"...; never on a line about alerts, metrics or classes). Field `Location.parent_location`.
 * - Acronym `POMDP`: 2–6 capitals with optional digits and plural `s`; a defined long form
 *   ("partially observable Markov decision process (POMDP)" or "POMDPs (partially ...)") becomes
 *   an alias, the definition span is kept, and later uses of the long form are mentions. Skipped:
 *   roman numerals, HTTP methods, format/protocol hubs (API, URL, HTTP, JSON, ...), words the
 *   document also writes in lower case (so "US" goes where "us" appears), shouted lines and
 *   phrases, status words (DONE, FOLLOW-UPS).
 * - Concept: capitalised runs of two or more words ("Aerothermal Methods Group"), eponyms
 *   ("Gauss–Seidel"), two-hump brands ("PagerDuty"), glossary entries (`**Term** — ...`) and
 *   bold terms introduced mid-sentence ("a **particle filter**"). Not: a clause-initial word that
 *   is only capitalised by grammar, title-case found only in headings, the document's title, job
 *   titles, calendar words, and "Algorithm 3.2"-style numbered entities (another extractor's).
 *
 * Fenced code is skipped except for `curl` commands: variable names and sample values in code are
 * noise at graph level. Math, URLs, host names and HTML tags are skipped everywhere.
 *
 * RELATED edges link entities named in the same unit (a paragraph, a table row, a fenced block),
 * weighted by the number of units they share; only the MAX_RELATED_PER_UNIT most mentioned
 * entities of a unit take part.
 */
import { ErrorCode, RagError } from '../../errors/index.js';
import type { DocumentFacts, EntityFact, RelationFact, Span } from '../facts.js';
import { entityKey, mergeFacts, singularize } from '../resolve.js';

export interface ExtractionInput {
  text: string;
  title: string | null;
  kind: string;
  sourcePath: string;
}

export interface EntityExtractor {
  readonly name: string;
  extract(input: ExtractionInput, signal?: AbortSignal): Promise<DocumentFacts>;
  /** Present when a cache sits in front: whether `extract` would be answered from it. */
  isCached?(input: ExtractionInput): Promise<boolean>;
}

export interface ExtractEntitiesOptions {
  /** The document's title; a capitalised run equal to it is the document, not an entity in it. */
  title?: string;
}

/** Entities of a paragraph that take part in co-mention edges (the most mentioned first). */
export const MAX_RELATED_PER_UNIT = 12;

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const HTTP_METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);
const METHOD_PATTERN = HTTP_METHODS.join('|');

// ---------------------------------------------------------------------------------------------
// Layout: what of the text is prose, code span, fence; paragraphs; headings

interface Region {
  start: number;
  end: number;
}

interface CodeSpan extends Region {
  /** The trimmed content, which starts at `innerStart`. */
  innerStart: number;
  inner: string;
}

interface Layout {
  /** The text with everything that is not prose blanked to spaces (offsets unchanged). */
  prose: string;
  fences: Region[];
  codeSpans: CodeSpan[];
  headings: Region[];
  /** Co-mention units: paragraphs, each table row, each fenced block. */
  units: Region[];
  /** Lower-case words written as words in prose: "edge" here means "Edge" may be a plain word. */
  lowercaseWords: ReadonlySet<string>;
}

interface Line extends Region {
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, end, text: text.slice(start, end) });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

function findFences(lines: readonly Line[]): Region[] {
  const fences: Region[] = [];
  let open: { marker: string; start: number } | null = null;
  for (const line of lines) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line.text);
    if (open === null) {
      if (match) open = { marker: match[1]!, start: line.start };
    } else if (match && match[1]!.startsWith(open.marker) && line.text.trim() === match[1]) {
      fences.push({ start: open.start, end: line.end });
      open = null;
    }
  }
  // An unclosed fence runs to the end, as CommonMark renders it.
  if (open !== null) fences.push({ start: open.start, end: lines.at(-1)!.end });
  return fences;
}

class Mask {
  readonly masked: Uint8Array;

  constructor(private readonly text: string) {
    this.masked = new Uint8Array(text.length);
  }

  set(start: number, end: number): void {
    this.masked.fill(1, start, end);
  }

  isMasked(index: number): boolean {
    return this.masked[index] === 1;
  }

  /** Masks every match of `pattern` that starts in unmasked text; returns what it masked. */
  maskAll(pattern: RegExp): RegExpExecArray[] {
    const matches: RegExpExecArray[] = [];
    for (const match of this.text.matchAll(pattern)) {
      if (this.isMasked(match.index)) continue;
      this.set(match.index, match.index + match[0].length);
      matches.push(match);
    }
    return matches;
  }

  apply(): string {
    const chars = new Array<string>(this.text.length);
    for (let index = 0; index < this.text.length; index++) {
      const char = this.text[index]!;
      chars[index] = this.masked[index] === 1 && char !== '\n' ? ' ' : char;
    }
    return chars.join('');
  }
}

function analyseLayout(text: string): Layout {
  const lines = splitLines(text);
  const fences = findFences(lines);
  const mask = new Mask(text);
  for (const fence of fences) mask.set(fence.start, fence.end);
  mask.maskAll(/\$\$[\s\S]*?\$\$/g);
  // Code spans before inline math: `${code}` is code, and markdown binds code spans first.
  const codeSpans = mask.maskAll(/(?<!`)(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g).map((match): CodeSpan => {
    const open = match[1]!.length;
    const raw = match[2]!;
    const lead = raw.length - raw.trimStart().length;
    const inner = raw.trim();
    const innerStart = match.index + open + lead;
    return {
      start: match.index,
      end: match.index + match[0].length,
      innerStart,
      inner,
    };
  });
  mask.maskAll(/(?<![\\$\w])\$(?=[^\s$])[^$\n]*?[^\s\\$]\$(?![\d$])/g);
  mask.maskAll(/\b(?:https?|ftp):\/\/[^\s<>()[\]`"']+/g);
  mask.maskAll(/\]\([^)\s]*\)/g);
  mask.maskAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g);
  mask.maskAll(/\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|app|example|co\.uk)\b[^\s)]*/g);
  mask.maskAll(/<\/?[A-Za-z][^>\n]*>/g);
  // Emphasis markers, so that **Meridian Parcel** reads as a name and not as punctuation.
  mask.maskAll(/\*+/g);
  mask.maskAll(/(?<![\p{L}\p{N}_])_+(?=\S)|(?<=\S)_+(?![\p{L}\p{N}_])/gu);
  const prose = mask.apply();

  const headings = lines
    .filter((line) => /^ {0,3}#{1,6}\s/.test(line.text) && !mask.isMasked(line.start))
    .map(({ start, end }) => ({ start, end }));
  const lowercaseWords = new Set(
    [...prose.matchAll(/(?<![\p{L}\p{N}_#/.@-])\p{Ll}+(?![\p{L}\p{N}_/@-])/gu)].map((match) => match[0]),
  );
  return { prose, fences, codeSpans, headings, units: findUnits(lines, fences), lowercaseWords };
}

/**
 * Paragraphs (split on blank lines), except that a fenced block is one unit even with blank
 * lines inside and each table row is its own unit: a row is a record, and a whole table as one
 * paragraph would relate every row to every other.
 */
function findUnits(lines: readonly Line[], fences: readonly Region[]): Region[] {
  const units: Region[] = [];
  let current: Region | null = null;
  const close = () => {
    if (current) units.push(current);
    current = null;
  };
  let fenceIndex = 0;
  for (const line of lines) {
    while (fenceIndex < fences.length && fences[fenceIndex]!.end < line.start) fenceIndex++;
    const fence = fences[fenceIndex];
    if (fence && line.start >= fence.start && line.start <= fence.end) {
      if (line.start === fence.start) {
        close();
        units.push({ start: fence.start, end: fence.end });
      }
      continue;
    }
    const trimmed = line.text.trim();
    if (trimmed.length === 0) {
      close();
    } else if (trimmed.startsWith('|')) {
      close();
      if (!/^\|[\s|:-]*$/.test(trimmed)) units.push({ start: line.start, end: line.end });
    } else if (current) {
      (current as Region).end = line.end;
    } else {
      current = { start: line.start, end: line.end };
    }
  }
  close();
  return units;
}

// ---------------------------------------------------------------------------------------------
// Mentions as the scanners find them, before types are settled and names merged

interface Candidate {
  type: string;
  name: string;
  span: Span;
  properties?: Record<string, unknown>;
  /** Derived from another mention (an endpoint's resource): no co-mention edges of its own. */
  derived?: boolean;
  /** Only in a heading: kept only if the same thing is also named in the body. */
  headingOnly?: boolean;
  aliases?: string[];
  definition?: Span;
}

/** An identifier-shaped code name whose type depends on all its mentions in the document. */
interface CodeName {
  name: string;
  span: Span;
  shape: 'snake' | 'word' | 'pascal' | 'pascal-word' | 'other';
  errorContext: boolean;
  schemaContext: boolean;
  properties?: Record<string, unknown>;
}

interface AcronymDefinition {
  acronym: string;
  /** Where the acronym itself is written in the definition. */
  shortSpan: Span;
  longForm: string;
  longFormSpan: Span;
  definition: Span;
}

class Collector {
  readonly candidates: Candidate[] = [];
  readonly codeNames: CodeName[] = [];
  readonly relations: RelationFact[] = [];
  /** One flag per UTF-16 unit of the text: taken by an earlier, more specific scanner. */
  private readonly claimed: Uint8Array;

  constructor(length: number) {
    this.claimed = new Uint8Array(length);
  }

  overlapsClaimed(start: number, end: number): boolean {
    return this.claimed.subarray(start, end).includes(1);
  }

  claim(start: number, end: number): void {
    this.claimed.fill(1, start, end);
  }

  add(candidate: Candidate): void {
    this.candidates.push(candidate);
    if (!candidate.derived) this.claim(candidate.span.start, candidate.span.end);
  }

  addCodeName(codeName: CodeName): void {
    this.codeNames.push(codeName);
    this.claim(codeName.span.start, codeName.span.end);
  }
}

// ---------------------------------------------------------------------------------------------
// Endpoints and resources

/** `/v2/shipments/shp_01J2.../events` → `/shipments/{shipmentId}/events`: a concrete id is a parameter. */
function templatePath(path: string): string | null {
  const segments = path.split('/').filter((segment) => segment.length > 0);
  if (segments.length > 0 && /^v\d+$/.test(segments[0]!)) segments.shift();
  if (segments.length === 0) return null;
  const templated = segments.map((segment, index) => {
    if (!/^[a-z]{2,8}_[A-Za-z0-9]{4,}$/.test(segment) || !/\d/.test(segment)) return segment;
    const previous = index > 0 ? singularize(segments[index - 1]!) : '';
    return /^[a-z]+$/.test(previous) ? `{${previous}Id}` : '{id}';
  });
  return `/${templated.join('/')}`;
}

/**
 * The collection an API path starts with, when it looks like one: a lower-case plural word
 * (after an optional version segment). "/oauth/token" or "/etc/hosts" name no resource. The
 * name is singular, as the OpenAPI loader names resources (`/shipments/...` → `shipment`); the
 * span covers the segment as written.
 */
function resourceOf(path: string, start: number): { name: string; span: Span } | null {
  const match = /^(\/v\d+)?\/([a-z][a-z_-]*)(?=$|[/?#])/.exec(path);
  if (!match) return null;
  const segment = match[2]!;
  const name = singularize(segment);
  if (name === segment) return null;
  const offset = start + (match[1]?.length ?? 0) + 1;
  return { name, span: { start: offset, end: offset + segment.length } };
}

/**
 * Adds an endpoint and the resource its path starts with. `path` names the endpoint;
 * `written` is the path as the text has it at `writtenStart` (they differ for a curl URL).
 */
function addEndpoint(
  collector: Collector,
  method: string,
  path: string,
  span: Span,
  written: { path: string; start: number } = { path, start: span.end - path.length },
): void {
  if (path.length <= 1) return;
  const name = `${method} ${path}`;
  collector.add({ type: 'Endpoint', name, span, properties: { method, path } });
  const resource = resourceOf(written.path, written.start);
  if (resource) {
    collector.add({ type: 'Resource', name: resource.name, span: resource.span, derived: true });
    collector.relations.push({
      from: { type: 'Resource', name: resource.name },
      to: { type: 'Endpoint', name },
      type: 'RESOURCE_HAS_ENDPOINT',
      weight: 1,
    });
  }
}

/** `curl [-X METHOD] URL` in fenced code: the one kind of code that names an API operation. */
function scanCurlCommands(text: string, fences: readonly Region[], collector: Collector): void {
  for (const fence of fences) {
    const body = text.slice(fence.start, fence.end);
    for (const command of body.matchAll(/\bcurl\b(?:[^\n]*\\\n)*[^\n]*/g)) {
      const commandStart = fence.start + command.index;
      const source = command[0];
      const url = /(?<=[\s"'])["']?(?:\$\{?\w+\}?|https?:\/\/[^/\s"']+)(\/[^\s"'?#\\]*)/.exec(source);
      if (!url?.[1]) continue;
      const path = templatePath(url[1]);
      if (path === null) continue;
      const explicit = /(?:^|\s)(?:-X|--request)\s*([A-Z]+)\b/.exec(source);
      const hasBody = /(?:^|\s)(?:-d|--data(?:-raw|-binary|-urlencode)?|-F|--form|--json)\b/.test(source);
      const method = explicit?.[1] ?? (hasBody ? 'POST' : 'GET');
      if (!HTTP_METHOD_SET.has(method)) continue;
      const pathStart = commandStart + url.index + url[0].length - url[1].length;
      const start = explicit ? commandStart + explicit.index + explicit[0].indexOf(method) : commandStart;
      const span = { start, end: pathStart + url[1].length };
      // The path as written may hold a concrete id; the name uses the template.
      addEndpoint(collector, method, path, span, { path: url[1], start: pathStart });
    }
  }
}

function scanProseEndpoints(prose: string, collector: Collector): void {
  const pattern = new RegExp(`(?<![\\w-])(${METHOD_PATTERN})\\s+(\\/[\\w\\-./{}]*)`, 'g');
  for (const match of prose.matchAll(pattern)) {
    const pathStart = match.index + match[0].length - match[2]!.length;
    // A sentence may end right after the path: "... on POST /shipments."
    const path = match[2]!.replace(/[.,;:)]+$/, '');
    addEndpoint(collector, match[1]!, path, { start: match.index, end: pathStart + path.length });
  }
}

// ---------------------------------------------------------------------------------------------
// Code names: identifiers, error codes, headers, schemas

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

function codeName(
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
function scanCodeSpan(text: string, span: CodeSpan, collector: Collector): void {
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
function scanProseCodeNames(layout: Layout, text: string, collector: Collector): void {
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
function typeCodeNames(codeNames: readonly CodeName[]): Candidate[] {
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

// ---------------------------------------------------------------------------------------------
// Acronyms

/**
 * All-caps words that are not acronyms worth a node: HTTP methods, formats and protocols every
 * technical page mentions (they would become hubs linked to everything), and shouted words.
 */
const NOT_ACRONYMS: ReadonlySet<string> = new Set([
  ...HTTP_METHODS,
  'API',
  'URL',
  'URI',
  'HTTP',
  'HTTPS',
  'JSON',
  'HTML',
  'XML',
  'CSV',
  'YAML',
  'ID',
  'OK',
  'AM',
  'PM',
  'TODO',
  'FIXME',
  'NOTE',
  'TBD',
  'NB',
  'FYI',
  'ETA',
  'AND',
  'OR',
  'NOT',
  'NO',
  'YES',
  'DO',
  'IF',
  'THE',
  'ALL',
  'NEW',
  'END',
  'NULL',
  'TRUE',
  'FALSE',
  // status words of notes and email subjects
  'DONE',
  'WIP',
  'FOLLOW',
  'RE',
  'FW',
  'FWD',
  'PS',
]);

const ROMAN_NUMERAL = /^[IVX]+$/;

/** The Schwartz–Hearst check: the short form's characters appear in order in the long form, the
 * first one at a word start. Returns the long form's start within `long`, or -1. Additionally
 * at least half the letters must start words, so "ZPL (203 dpi)" or "MDP (Chapter 7)" fail. */
function matchLongForm(short: string, long: string): number {
  const letters = short.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const lower = long.toLowerCase();
  const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);
  let longIndex = lower.length - 1;
  let wordStarts = 0;
  for (let shortIndex = letters.length - 1; shortIndex >= 0; shortIndex--) {
    const char = letters[shortIndex]!;
    while (
      longIndex >= 0 &&
      (lower[longIndex] !== char || (shortIndex === 0 && isWordChar(lower[longIndex - 1])))
    ) {
      longIndex--;
    }
    if (longIndex < 0) return -1;
    if (!isWordChar(lower[longIndex - 1])) wordStarts++;
    longIndex--;
  }
  return wordStarts * 2 >= letters.length ? longIndex + 1 : -1;
}

function isAcronymShape(token: string): boolean {
  const core = token.replace(/-/g, '');
  const capitals = core.replace(/[^A-Z]/g, '').length;
  return (
    core.length >= 2 &&
    core.length <= 7 &&
    capitals >= 2 &&
    capitals <= 6 &&
    /^[A-Z][A-Z0-9]*$/.test(core) &&
    !NOT_ACRONYMS.has(core) &&
    !ROMAN_NUMERAL.test(core) &&
    !/^X+$/.test(core)
  );
}

const stripPlural = (token: string) => (/[A-Z0-9]s$/.test(token) ? token.slice(0, -1) : token);

/** "long form (LF)" and "LF (long form)", with the long form's span and the whole definition. */
function findAcronymDefinitions(prose: string, collector: Collector): AcronymDefinition[] {
  const definitions: AcronymDefinition[] = [];
  const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();
  // long form (SF)
  for (const match of prose.matchAll(/\(\s*([A-Z][A-Z0-9-]*[A-Z0-9]s?)\s*\)/g)) {
    const acronym = stripPlural(match[1]!);
    if (!isAcronymShape(acronym)) continue;
    const lineStart = prose.lastIndexOf('\n', match.index) + 1;
    const before = prose.slice(lineStart, match.index);
    const clauseStart =
      lineStart + Math.max(...[...'.;:,()!?"|—'].map((mark) => before.lastIndexOf(mark))) + 1;
    const end = lineStart + before.trimEnd().length;
    const words = [...prose.slice(clauseStart, end).matchAll(/\S+/g)];
    const maxWords = Math.min(acronym.length + 5, acronym.length * 2);
    const firstWord = words.at(-maxWords) ?? words[0];
    if (firstWord === undefined) continue;
    const windowStart = clauseStart + firstWord.index;
    const offset = matchLongForm(acronym, prose.slice(windowStart, end));
    if (offset < 0) continue;
    const start = windowStart + offset;
    const longForm = collapse(prose.slice(start, end));
    if (!/\s|[-–]/.test(longForm) || /\d/.test(longForm) || longForm.toUpperCase() === longForm) continue;
    const shortStart = match.index + match[0].indexOf(match[1]!);
    definitions.push({
      acronym,
      shortSpan: { start: shortStart, end: shortStart + match[1]!.length },
      longForm,
      longFormSpan: { start, end },
      definition: { start, end: match.index + match[0].length },
    });
    collector.claim(match.index, match.index + match[0].length);
  }
  // SF (long form)
  for (const match of prose.matchAll(/(?<![\w-])([A-Z][A-Z0-9]{1,6}s?)\s+\(([^()\n\d]{3,120})\)/g)) {
    const acronym = stripPlural(match[1]!);
    const inner = match[2]!;
    const long = collapse(inner);
    if (!isAcronymShape(acronym) || !/\s|[-–]/.test(long) || matchLongForm(acronym, long) !== 0) continue;
    if (long.split(' ').length > Math.min(acronym.length + 5, acronym.length * 2)) continue;
    const innerStart = match.index + match[0].length - 1 - inner.length;
    const start = innerStart + (inner.length - inner.trimStart().length);
    definitions.push({
      acronym,
      shortSpan: { start: match.index, end: match.index + match[1]!.length },
      longForm: long,
      longFormSpan: { start, end: innerStart + inner.trimEnd().length },
      definition: { start: match.index, end: match.index + match[0].length },
    });
  }
  return definitions;
}

function scanAcronyms(layout: Layout, collector: Collector, defined: ReadonlySet<string>): void {
  const { prose, lowercaseWords } = layout;
  // An English word in capitals: the document writes it (or its -s/-ed/-ing form) in lower case.
  const isWord = (token: string) => {
    const lower = token.toLowerCase().replace(/-/g, '');
    return ['', 's', 'es', 'ed', 'ing'].some((suffix) => lowercaseWords.has(lower + suffix));
  };
  const shouting = (token: string | undefined) =>
    token !== undefined && /^[A-Z]{3,}$/.test(token) && isWord(token);
  const tokens = [
    // Not after ~ $ \ @ #: printer commands (~SD), variables, LaTeX, handles and channels.
    ...prose.matchAll(/(?<![\p{L}\p{N}_~$\\@#])[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*s?(?![\p{L}\p{N}_])/gu),
  ];
  for (const [index, match] of tokens.entries()) {
    const lineStart = prose.lastIndexOf('\n', match.index) + 1;
    const lineEnd = prose.indexOf('\n', match.index);
    const line = prose.slice(lineStart, lineEnd === -1 ? prose.length : lineEnd);
    // A line with no lower-case letter is a shouted heading ("CONTRIBUTING FACTORS").
    if (!/\p{Ll}/u.test(line.replace(/(?<=[A-Z0-9])s\b/g, ''))) continue;
    // A neighbour that is an English word in capitals makes this part of a shouted phrase.
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    const touchesPrevious = previous && previous.index + previous[0].length + 1 === match.index;
    const touchesNext = next && match.index + match[0].length + 1 === next.index;
    if ((touchesPrevious && shouting(previous[0])) || (touchesNext && shouting(next[0]))) continue;
    // "R-MAX" is one name; "RANS-LES" is two.
    const parts = match[0].split('-');
    const pieces =
      parts.some((part) => stripPlural(part).length === 1) || parts.length === 1
        ? [{ token: match[0], offset: 0 }]
        : parts.map((part, partIndex) => ({
            token: part,
            offset: parts.slice(0, partIndex).join('-').length + (partIndex > 0 ? 1 : 0),
          }));
    const accepted = pieces.map(({ token, offset }) => {
      const name = stripPlural(token);
      const ok = defined.has(name) || (isAcronymShape(name) && !isWord(name) && !shouting(token));
      return { name, ok, start: match.index + offset, end: match.index + offset + token.length };
    });
    // One rejected part ("FOLLOW" of "FOLLOW-UPS") means the compound is a shouted word.
    if (accepted.some((piece) => !piece.ok && /^[A-Z]{3,}$/.test(piece.name))) continue;
    for (const { name, ok, start, end } of accepted) {
      if (ok && !collector.overlapsClaimed(start, end))
        collector.add({ type: 'Acronym', name, span: { start, end } });
    }
  }
}

/** Adds the long forms of defined acronyms, wherever the document writes them, as mentions. */
function scanLongForms(prose: string, definitions: readonly AcronymDefinition[], collector: Collector): void {
  for (const definition of definitions) {
    const { acronym, longForm } = definition;
    for (const span of [definition.shortSpan, definition.longFormSpan]) {
      collector.add({
        type: 'Acronym',
        name: acronym,
        span,
        aliases: [longForm],
        definition: definition.definition,
      });
    }
    const words = definition.longForm
      .split(/[\s\-–]+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${words.join('[\\s\\-–]+')}(?:e?s)?(?![\\p{L}\\p{N}])`,
      'giu',
    );
    for (const match of prose.matchAll(pattern)) {
      const end = match.index + match[0].length;
      if (!collector.overlapsClaimed(match.index, end)) {
        collector.add({ type: 'Acronym', name: definition.acronym, span: { start: match.index, end } });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Concepts: capitalised names and glossary terms

// Capitalised only because they start a sentence; dropped from the front of a run there.
const SENTENCE_STARTERS: ReadonlySet<string> = new Set(
  (
    'The A An This That These Those Its It In On At For From To With Without By Of As If When While ' +
    'Where Why How What Which Who After Before During Since Until Once Then Also But And Or So ' +
    'Each Every All Any Some No Not Most Many Both Our Your Their My We You They He She I ' +
    'Use Using See Set Check Call Create Add Run Do Read Pass Keep Make Open Start Stop Wait ' +
    'Retry Verify Choose Compare Define Discard Report Upload Connect Import Move List Get Note ' +
    'Ask Let Give Take Find Try Send Return Store Log Register Follow Prefer Avoid Never Always ' +
    'Inform Notify Page Escalate Update Confirm Contact Review Repeat Continue Derive Show Prove ' +
    'Compute Explain Consider Suppose Assume Hello Hi Dear Thanks Regards Best Cheers Yes ' +
    'Roll Revoke Rotate Delete Save Click Press Select Enable Disable Submit Cancel Replay Go'
  ).split(' '),
);

const CAPITALISED_TOKEN =
  /(?<![\p{L}\p{N}_'’.-])\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)*(?:[-–]\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)*)*(?![\p{L}\p{N}_-])/gu;
const MAX_CONCEPT_WORDS = 6;
// Never part of a name here: calendar words ("Monday Jan 6") and the words of numbered entities
// ("Repeat Example 19.1"), which the numbered extractor owns.
const NEVER_IN_NAMES: ReadonlySet<string> = new Set(
  (
    'Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec January February March April May June July ' +
    'August September October November December Algorithm Algorithms Equation Equations Table Tables ' +
    'Figure Figures Example Examples Exercise Exercises Chapter Chapters Section Sections Appendix'
  ).split(' '),
);
// Words that never sit inside a name, so they end a run ("- Dashboard The webhook log ...").
const NEVER_INSIDE_NAMES: ReadonlySet<string> = new Set(
  'The This That These Those It Its If When We You They Our Your Their He She'.split(' '),
);
// A run ending in a role is a job title ("Principal Fulfilment Engineer"), not a thing.
const ROLE_WORDS: ReadonlySet<string> = new Set(
  'Engineer Engineers Manager Director Officer Lead Specialist Analyst Scientist Architect Aerodynamicist Head'.split(
    ' ',
  ),
);

/**
 * Whether an offset starts a clause: at the start of a line (after list, heading, quote or table
 * markers and timestamps), or after sentence punctuation or a number. A slash, comma or word
 * before it means the capital is the writer's choice, not the grammar's.
 */
function startsClause(prose: string, offset: number): boolean {
  const before = prose.slice(prose.lastIndexOf('\n', offset - 1) + 1, offset).trimEnd();
  return before.length === 0 || /(?:^[\s#>|+*-]*(?:\d+[.)])?|[.!?:;|"“([—–-]|\d)$/u.test(before);
}

function isInside(regions: readonly Region[], offset: number): boolean {
  return regions.some((region) => offset >= region.start && offset < region.end);
}

/** "Northwind Freight", "Aerothermal Methods Group", "Gauss–Seidel", "PagerDuty". */
function scanCapitalisedRuns(layout: Layout, collector: Collector, titleKey: string | null): void {
  const { prose, lowercaseWords, headings } = layout;
  const tokens = [...prose.matchAll(CAPITALISED_TOKEN)].filter(
    (match) =>
      !NEVER_IN_NAMES.has(match[0]) &&
      !NEVER_INSIDE_NAMES.has(match[0]) &&
      !collector.overlapsClaimed(match.index, match.index + match[0].length),
  );
  const runs: RegExpExecArray[][] = [];
  for (const token of tokens) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    const gap = previous ? prose.slice(previous.index + previous[0].length, token.index) : null;
    if (run && (gap === ' ' || gap === ' of ')) run.push(token);
    else runs.push([token]);
  }
  for (const run of runs) {
    let first = run[0]!;
    if (startsClause(prose, first.index)) {
      const word = first[0];
      const lower = word.toLowerCase();
      // Capitalised only because it starts the clause: a function word, a word the document
      // also writes in lower case, or a verb as notes start them ("Calls Meridian ...").
      if (SENTENCE_STARTERS.has(word) || lowercaseWords.has(lower) || /(?:[^su]s|ing)$/.test(lower)) {
        run.shift();
      }
    }
    if (run.length === 0 || run.length > MAX_CONCEPT_WORDS) continue;
    if (ROLE_WORDS.has(run[0]![0]) || ROLE_WORDS.has(run.at(-1)![0])) continue;
    first = run[0]!;
    const last = run.at(-1)!;
    const single = first[0];
    const accepted = run.length >= 2 || /[-–]\p{Lu}/u.test(single) || /\p{Ll}\p{Lu}/u.test(single);
    if (!accepted) continue;
    const span = { start: first.index, end: last.index + last[0].length };
    const name = prose.slice(span.start, span.end);
    if (titleKey !== null && entityKey('Concept', name) === titleKey) continue;
    collector.add({ type: 'Concept', name, span, headingOnly: isInside(headings, span.start) });
  }
}

// Words that make a bold phrase emphasis rather than a term ("**only once**", "**not ordered**").
const EMPHASIS_WORDS: ReadonlySet<string> = new Set(
  (
    'the a an to be is are was were not no only once your our their my when after before all per at ' +
    'least most more same first every always never very each any this that these those one two three ' +
    'four five six seven eight nine ten do does did you we it if or'
  ).split(' '),
);

/**
 * A bold phrase that defines a term: in a glossary entry (a line opening with `**Term** —`), or
 * mid-sentence as textbooks introduce terms ("a **particle filter** represents ..."). Bold at the
 * start of a list item is a label ("**Lift an auto-block**"), and bold is also plain emphasis, so
 * phrases with function words are rejected, and a single word counts only as a noun after an
 * article and before punctuation or a verb.
 */
function definedTerm(text: string, start: number, end: number): { glossary: boolean } | null {
  const term = text.slice(start, end);
  const words = term.split(/\s+/);
  if (!/^\p{L}[\p{L}'’ -]*\p{L}$/u.test(term) || term.toUpperCase() === term || words.length > 5) return null;
  if (words.some((word) => EMPHASIS_WORDS.has(word.toLowerCase()))) return null;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start - 2);
  const after = text.slice(end + 2, end + 40);
  if (/^\s*$/.test(before)) return /^\s+[—–]\s+\S/.test(after) ? { glossary: true } : null;
  if (/^\s*(?:[-*+]|\d+[.)])\s*$/.test(before)) return null;
  // "to **roll out**" is a verb; "Use **Roll key**" is a button.
  if (/\bto\s+$/i.test(before) || SENTENCE_STARTERS.has(words[0]!)) return null;
  if (words.length > 1) return { glossary: false };
  const noun =
    /\b(?:a|an|the|its|their|called|termed|as)\s+$/i.test(before) &&
    /^(?:\s*[,.;:)(]|\s+(?:of|is|are|was|which|that|in|for|with|to)\b)/.test(after);
  return noun ? { glossary: false } : null;
}

function scanDefinedTerms(text: string, layout: Layout, collector: Collector): void {
  const { prose, fences } = layout;
  const terms: string[] = [];
  for (const match of text.matchAll(/(?<!\*)\*\*(?!\*)([^*\n]{2,80}?)\*\*(?!\*)/g)) {
    const start = match.index + 2 + (match[1]!.length - match[1]!.trimStart().length);
    const end = start + match[1]!.trim().length;
    if (isInside(fences, match.index) || collector.overlapsClaimed(start, end)) continue;
    const kind = definedTerm(text, start, end);
    if (kind === null) continue;
    const name = text.slice(start, end);
    const lineEnd = text.indexOf('\n', end);
    const definition = kind.glossary
      ? { start: match.index, end: lineEnd === -1 ? text.length : lineEnd }
      : undefined;
    collector.add(
      definition
        ? { type: 'Concept', name, span: { start, end }, definition }
        : { type: 'Concept', name, span: { start, end } },
    );
    terms.push(name);
  }
  // Other uses of a multi-word term ("Compare *dimensional weight*") mention it too.
  for (const term of new Set(terms)) {
    if (!/\s/.test(term)) continue;
    const words = term.split(/[\s-]+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${words.join('[\\s-]+')}(?:e?s)?(?![\\p{L}\\p{N}])`,
      'giu',
    );
    for (const use of prose.matchAll(pattern)) {
      const end = use.index + use[0].length;
      if (!collector.overlapsClaimed(use.index, end)) {
        collector.add({ type: 'Concept', name: term, span: { start: use.index, end } });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Assembly

function toEntityFacts(candidates: readonly Candidate[]): EntityFact[] {
  return candidates.map((candidate) => {
    const fact: EntityFact = { type: candidate.type, name: candidate.name, mentions: [candidate.span] };
    if (candidate.aliases) fact.aliases = candidate.aliases;
    if (candidate.properties) fact.properties = candidate.properties;
    if (candidate.definition) fact.definition = candidate.definition;
    return fact;
  });
}

/** A capitalised run seen only in headings is title case, not a name. */
function dropHeadingOnly(candidates: readonly Candidate[]): Candidate[] {
  const inBody = new Set(
    candidates
      .filter((candidate) => !candidate.headingOnly)
      .map((candidate) => entityKey(candidate.type, candidate.name)),
  );
  return candidates.filter(
    (candidate) => !candidate.headingOnly || inBody.has(entityKey(candidate.type, candidate.name)),
  );
}

function unitIndexOf(units: readonly Region[], offset: number): number {
  let low = 0;
  let high = units.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const unit = units[middle]!;
    if (offset < unit.start) high = middle - 1;
    else if (offset >= unit.end) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * RELATED edges between entities named in the same unit, weighted by the number of units they
 * share. Only the MAX_RELATED_PER_UNIT most mentioned entities of a unit take part, so a long
 * list adds at most 66 edges rather than growing quadratically.
 */
function coMentions(
  entities: readonly EntityFact[],
  units: readonly Region[],
  derived: ReadonlySet<string>,
): RelationFact[] {
  const perUnit = new Map<number, Map<number, { count: number; first: number }>>();
  entities.forEach((entity, entityIndex) => {
    for (const mention of entity.mentions) {
      if (entity.type === 'Resource' && derived.has(`${mention.start}:${mention.end}`)) continue;
      const unitIndex = unitIndexOf(units, mention.start);
      if (unitIndex < 0) continue;
      const counts = perUnit.get(unitIndex) ?? new Map<number, { count: number; first: number }>();
      const entry = counts.get(entityIndex) ?? { count: 0, first: mention.start };
      entry.count++;
      entry.first = Math.min(entry.first, mention.start);
      counts.set(entityIndex, entry);
      perUnit.set(unitIndex, counts);
    }
  });
  const weights = new Map<string, { from: number; to: number; weight: number }>();
  for (const counts of perUnit.values()) {
    const top = [...counts.entries()]
      .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
      .slice(0, MAX_RELATED_PER_UNIT)
      .map(([entityIndex]) => entityIndex)
      .sort((a, b) => a - b);
    for (let i = 0; i < top.length; i++) {
      for (let j = i + 1; j < top.length; j++) {
        const id = `${top[i]}:${top[j]}`;
        const pair = weights.get(id) ?? { from: top[i]!, to: top[j]!, weight: 0 };
        pair.weight++;
        weights.set(id, pair);
      }
    }
  }
  return [...weights.values()]
    .sort((a, b) => a.from - b.from || a.to - b.to)
    .map(({ from, to, weight }) => ({
      from: { type: entities[from]!.type, name: entities[from]!.name },
      to: { type: entities[to]!.type, name: entities[to]!.name },
      type: 'RELATED',
      weight,
    }));
}

/**
 * Extracts entities and co-mention relations from one document's text; the same text always
 * gives the same facts. Entities are ordered by their first mention.
 */
export function extractEntities(text: string, options: ExtractEntitiesOptions = {}): DocumentFacts {
  const layout = analyseLayout(text);
  const collector = new Collector(text.length);
  // Order matters: each scanner claims its spans, and later, vaguer scanners skip claimed text.
  scanCurlCommands(text, layout.fences, collector);
  for (const span of layout.codeSpans) scanCodeSpan(text, span, collector);
  scanProseEndpoints(layout.prose, collector);
  scanProseCodeNames(layout, text, collector);
  collector.candidates.push(...typeCodeNames(collector.codeNames));
  const definitions = findAcronymDefinitions(layout.prose, collector);
  scanLongForms(layout.prose, definitions, collector);
  scanAcronyms(layout, collector, new Set(definitions.map((definition) => definition.acronym)));
  // `LTL` in code is the LTL the prose uses as an acronym: one node, not two.
  const acronyms = new Set(
    collector.candidates.filter(({ type }) => type === 'Acronym').map(({ name }) => name),
  );
  for (const candidate of collector.candidates) {
    if (candidate.type === 'Identifier' && acronyms.has(candidate.name)) candidate.type = 'Acronym';
  }
  scanDefinedTerms(text, layout, collector);
  const title = options.title?.trim();
  scanCapitalisedRuns(layout, collector, title ? entityKey('Concept', title) : null);

  const candidates = dropHeadingOnly(collector.candidates);
  const merged = mergeFacts([{ entities: toEntityFacts(candidates), relations: collector.relations }]);
  // Code-unit comparison, not localeCompare: the order must not depend on the host's locale.
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const entities = merged.entities.sort(
    (a, b) =>
      a.mentions[0]!.start - b.mentions[0]!.start || compare(a.type, b.type) || compare(a.name, b.name),
  );
  const derived = new Set(
    candidates.filter((candidate) => candidate.derived).map(({ span }) => `${span.start}:${span.end}`),
  );
  return { entities, relations: [...merged.relations, ...coMentions(entities, layout.units, derived)] };
}

/** The model-free extractor: fast, deterministic, and available without any configuration. */
export class OfflineEntityExtractor implements EntityExtractor {
  readonly name = 'offline';

  extract(input: ExtractionInput, signal?: AbortSignal): Promise<DocumentFacts> {
    if (signal?.aborted) {
      return Promise.reject(
        new RagError(ErrorCode.ABORTED, `entity extraction of ${input.sourcePath} was aborted`, {
          cause: signal.reason,
        }),
      );
    }
    const options = input.title === null ? {} : { title: input.title };
    return Promise.resolve(extractEntities(input.text, options));
  }
}
