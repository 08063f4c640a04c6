import { parseEntityReference } from '../../graph/index.js';
import { extractIdentifiers, type RetrievalHit } from '../../retrieve/index.js';
import { findInjections } from '../quarantine/index.js';
import { injectionsIn } from './suspicion.js';
import type { Source } from '../answer-types.js';
import { contentStems, splitSentences, splitUnits, type TextUnit } from '../text.js';
import { choose, expand, MAX_UNIT_LENGTH, NUMBER_FIT, unaddressed, type Candidate } from './passage.js';
import { questionShape, type QuestionShape } from '../../understand/index.js';
import {
  givesReason,
  hasNumber,
  isDecisive,
  isDefinitional,
  isFragment,
  isQuestion,
  MIN_ITEM_WORDS,
  OPERATION_HEADING,
  OPERATION_REFERENCE,
} from './unit-shape.js';

export interface Synthesis {
  answer: string;
  /** The sources cited, with the [n] each got (in order of first use). */
  cited: Array<{ index: number; source: Source; quote: string }>;
  /**
   * Set when the passages retrieved do not address the question's focus: the answer is empty and
   * the caller says "not found" instead (why, for the run's warnings).
   */
  notAddressed?: string;
}

const MAX_ANSWER_LENGTH = 1800;
const MIN_UNIT_LENGTH = 12;
/**
 * What fitting the kind of answer asked for is worth: a figure for a number question, a cause or
 * condition for a why, an operation for an endpoint question, a definition of the focus itself.
 * List members, definitional verbs in general and decisive words are weaker signs (their shapes
 * are common), so they weigh less.
 */
const KIND_FIT = 0.15;
const DEFINES_FOCUS_FIT = 0.25;
const WEAK_FIT = 0.08;
const DECISIVE_FIT = 0.05;
const LOOKUP_TOOL = 'tool:lookup';
const CATALOGUE_CODES = 4;
/** A line that names the identifier asked about with fewer other words than this is an index entry. */
const INDEX_WORDS = 4;

/**
 * The answer without a model: sentences, list items and table rows of the retrieved chunks, quoted
 * verbatim (a row's cells under their headers), each ending with the [n] of its chunk. Each unit is
 * read under its chunk's title, its section heading and, in an FAQ, the question it answers.
 * Units are chosen greedily by how much of the question's focus they add (rarer words count
 * more), by what the question asks for (a number, a definition, steps, a list, a yes/no, a reason,
 * an operation), by their chunk's rank and by the exact identifiers they repeat; a document
 * already quoted is preferred and a new one must answer on its own, so the answer reads as one
 * passage and cites only sources that answer (see passage.ts). Headings, fragments and a source's
 * own questions are never quoted as sentences; a list item is quoted whole, a unit that leans on
 * the sentence before it ("when this happens") comes with that sentence, a lead-in or a table's
 * caption comes with its list or rows, and an operation's chunk is introduced by its heading
 * (`POST /locations — Create a location`), which names what the rest describes. Units carrying
 * injected instructions are never quoted. When nothing covers the focus's distinctive words, or
 * an operation is asked for and no operation covers the focus, the answer is empty and
 * `notAddressed` says why. For an endpoint question the request example of the best cited
 * operation is appended; for a numbered entity, its listing.
 */
export function extractiveAnswer(
  query: string,
  sources: readonly Source[],
  options: {
    intent: string;
    entity?: { type: string; number: string } | null;
    /**
     * Retrieval, not the wording, found this to be about what the API does ("How do I get rid of
     * a returns centre?"). Asked how to do it (not whether, why or how much), the operation leads
     * when one is among the passages, and prose answers when none is.
     */
    apiSubject?: boolean;
    /**
     * The operations retrieval ranked that do what the first does, to the same resource
     * (`POST /locations`, `POST /locations/bulk`), first first: "what endpoints can I use to …"
     * is answered by all of them.
     */
    sameOperations?: readonly string[];
  },
): Synthesis {
  const shape = questionShape(query, options.intent);
  const howToDo =
    options.apiSubject === true &&
    ![...shape.asks].some(
      (ask) => ask === 'yes-no' || ask === 'reason' || ask === 'number' || ask === 'definition',
    );
  // Operations are favoured for an endpoint intent, but only a question worded to ask for one
  // is left unanswered when no operation covers it.
  const operations = shape.asks.has('operation') || options.intent === 'endpoint';
  // Arithmetic is the calc tool's: its numbers say nothing about which passage is relevant.
  const focus = shape.focus.filter((stem) => !(options.intent === 'arithmetic' && /\d/.test(stem)));
  const pairs = adjacentPairs(contentStems(query));
  const names = codeNames(query).map((name) => new RegExp(`\\b${escape(name)}\\b`));
  const identifiers = [
    ...extractIdentifiers(query).map((identifier) => ({
      strong: once(identifier.strong),
      weak: identifier.weak ? once(identifier.weak) : null,
    })),
    ...names.map((strong) => ({ strong, weak: null })),
  ];

  // A tool's output is data too (a fetched page may carry an injection): quoted only when clean.
  // A lookup only says where a numbered entity is defined; when that definition is among the
  // sources, the definition is the evidence to quote and cite, not the pointer to it.
  const defined = options.entity ? definition(sources, options.entity) : null;
  const tools = sources.filter(
    (source) =>
      source.origin === 'tool' &&
      injectionsIn(source).length === 0 &&
      !(defined && source.sourceId === LOOKUP_TOOL),
  );
  const candidates: Candidate[] = [];
  const frequency = new Map<string, number>();
  let unitCount = 0;
  for (const source of sources) {
    if (source.origin === 'tool') continue;
    const siblings = splitUnits(source.text);
    // The detector is costly and a clean text has no dirty unit: units are checked one by one
    // only in a source that carries an injection somewhere.
    const suspicious = injectionsIn(source).length > 0;
    // A later chunk of an operation's document has no heading of its own; its title names it.
    const operation =
      siblings.find((unit) => unit.kind === 'heading' && OPERATION_HEADING.test(unit.text)) ??
      (source.title && OPERATION_HEADING.test(source.title)
        ? { kind: 'heading' as const, text: source.title, position: -1, block: -1 }
        : undefined);
    // The title heads the whole chunk ("ServiceLevel schema"); a Markdown heading, its section.
    const title = contentStems(source.title ?? '');
    let heading: string[] | null = null;
    for (const unit of siblings) {
      if (unit.kind === 'code') continue;
      const own = new Set(contentStems(unit.text));
      const stems = new Set(own);
      if (unit.kind === 'heading') heading = [...stems];
      unitCount++;
      for (const stem of stems) frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
      if (!quotable(unit, suspicious)) continue;
      // The answer after a source's own question is about that question's words, and a unit
      // under a heading is about the heading's ("## Growth" / "- 300 API requests per minute").
      const before = siblings[unit.position - 1];
      if (before && isQuestion(before.text)) for (const stem of contentStems(before.text)) stems.add(stem);
      if (heading && unit.kind !== 'heading') for (const stem of heading) stems.add(stem);
      if (unit.kind !== 'heading') for (const stem of title) stems.add(stem);
      candidates.push({
        source,
        unit,
        siblings,
        stems,
        own,
        base:
          baseScore(source, unit, shape, operations, identifiers, !!operation, focus) +
          PHRASE_FIT * Math.min(MAX_PHRASES, sharedPairs(pairs, unit.text)),
        operation: operation ?? null,
        named: names.some((name) => name.test(`${source.title ?? ''}\n${unit.text}`)),
        suspicious,
      });
    }
  }
  alias(focus, candidates, frequency);
  // A bare number in the question ("300 store locations", "our 90 kg shipment") is mostly a given
  // of the case, not what the answer must repeat: it weighs half.
  const weight = (stem: string) =>
    Math.log(1 + unitCount / (1 + (frequency.get(stem) ?? 0))) * (/^\d+$/.test(stem) ? 0.5 : 1);
  const total = focus.reduce((sum, stem) => sum + weight(stem), 0) || 1;
  const share = (stems: ReadonlySet<string>, except: ReadonlySet<string>) =>
    focus
      .filter((stem) => stems.has(stem) && !except.has(stem))
      .reduce((sum, stem) => sum + weight(stem), 0) / total;

  const picks = choose(
    candidates,
    shape.asks,
    share,
    shape.asks.has('operation'),
    howToDo,
    names.length > 0,
    shape.multiPart,
  );
  if (tools.length === 0 && picks.length === 0 && candidates.length > 0 && focus.length > 0)
    return { answer: '', cited: [], notAddressed: 'no passage covers the question' };
  const missing =
    tools.length === 0 && picks.length > 0
      ? unaddressed(picks, candidates, focus, weight, share, shape.asks, howToDo)
      : null;
  if (missing) return { answer: '', cited: [], notAddressed: missing };

  const listed = (options.sameOperations ?? []).length > 1 && shape.asks.has('list') && operations;
  if (listed) {
    const list = operationList(sources, options.sameOperations!);
    if (list) {
      // The first operation's request example, as for any endpoint question.
      const example = requestExample(sources, list.cited);
      if (!example) return list;
      const known = list.cited.find((entry) => entry.source.chunkId === example.source.chunkId);
      const index = known?.index ?? list.cited.length + 1;
      if (!known) list.cited.push({ index, source: example.source, quote: example.code });
      return {
        answer: `${list.answer} ${withCitation('Example request body', index)}\n\n${example.code}`,
        cited: list.cited,
      };
    }
  }
  const quoted = expand(picks, shape.asks);
  const cited: Synthesis['cited'] = [];
  const indexOf = (source: Source, quote: string) => {
    const known = cited.find((entry) => entry.source.chunkId === source.chunkId);
    if (known) return known.index;
    cited.push({ index: cited.length + 1, source, quote });
    return cited.length;
  };
  const lines = tools.map((tool) => withCitation(tool.text, indexOf(tool, tool.text)));
  let length = 0;
  let shown = false;
  for (const { source, units } of quoted) {
    for (const unit of units) {
      if (length + unit.text.length > MAX_ANSWER_LENGTH && length > 0) break;
      length += unit.text.length;
      // A row or an item may hold several sentences: each carries the citation.
      const index = indexOf(source, unit.text);
      for (const sentence of splitSentences(unit.text)) lines.push(withCitation(sentence, index));
    }
    // How to do something is answered by the command as much as by the sentence about it: the
    // code block right after the quoted passage comes with it, once, verbatim.
    const code =
      shape.asks.has('steps') && !shown && options.intent !== 'endpoint'
        ? followingCode(source, units)
        : null;
    if (code) {
      lines.push(`\n\n${code}\n\n`);
      length += code.length;
      shown = true;
    }
  }
  const example = options.intent === 'endpoint' ? requestExample(sources, cited) : null;
  if (example)
    lines.push(
      `${withCitation('Example request body', indexOf(example.source, example.code))}\n\n${example.code}`,
    );
  const listing = options.entity ? entityListing(sources, options.entity) : null;
  if (listing) {
    // Only words the listing's source contains, so the self-check finds the label supported.
    const label = `${options.entity!.type} ${options.entity!.number}`;
    lines.push(`${withCitation(label, indexOf(listing.source, listing.code))}\n\n${listing.code}`);
  }
  return { answer: lines.join(' ').replace(/ (\n|$)/g, '$1'), cited };
}

/** What each of the question's word pairs a unit repeats in order is worth, up to a few. */
const PHRASE_FIT = 0.05;
const MAX_PHRASES = 3;

/** Neighbouring content stems, in order: "dump the roles, no databases" → dump role, role databas. */
function adjacentPairs(stems: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let index = 1; index < stems.length; index++) pairs.add(`${stems[index - 1]} ${stems[index]}`);
  return pairs;
}

/**
 * How many of the question's word pairs a unit has as neighbours too: "Dump only roles, no
 * databases or tablespaces" repeats the question's phrasing; a unit that merely lists the same
 * words in another order ("the dumped databases, roles, and tablespaces") does not.
 */
function sharedPairs(pairs: ReadonlySet<string>, text: string): number {
  if (pairs.size === 0) return 0;
  let shared = 0;
  for (const pair of adjacentPairs(contentStems(text))) if (pairs.has(pair)) shared++;
  return shared;
}

/**
 * The operations that do what was asked, each by its heading and the first sentence of its own
 * description: "what endpoints can I use to create a location?" lists `POST /locations` and
 * `POST /locations/bulk`. Null when fewer than two of them are among the sources.
 */
function operationList(sources: readonly Source[], sourceIds: readonly string[]): Synthesis | null {
  const cited: Synthesis['cited'] = [];
  const lines: string[] = [];
  for (const sourceId of sourceIds) {
    const source = sources.find(
      (candidate) => candidate.sourceId === sourceId && candidate.origin !== 'tool',
    );
    if (!source) continue;
    const units = splitUnits(source.text);
    // A later chunk of the operation has no heading of its own; its title names it.
    const heading =
      units.find((unit) => unit.kind === 'heading' && OPERATION_HEADING.test(unit.text)) ??
      (source.title && OPERATION_HEADING.test(source.title)
        ? { kind: 'heading' as const, text: source.title, position: -1, block: -1 }
        : undefined);
    if (!heading) continue;
    const says = units.find(
      (unit) =>
        unit.position > heading.position &&
        unit.kind === 'sentence' &&
        !/^(Operation ID|Operation type|Authentication):/.test(unit.text) &&
        !isFragment(unit.text),
    );
    const index = cited.length + 1;
    cited.push({ index, source, quote: heading.text });
    lines.push(withCitation(heading.text, index));
    if (says) lines.push(withCitation(says.text, index));
  }
  return cited.length > 1 ? { answer: lines.join(' '), cited } : null;
}

/** Method, operation type and the resource acted on (its last static path segment, bulk aside). */
function operationShape(hit: RetrievalHit): string | null {
  const metadata = hit.documentMetadata ?? {};
  if (metadata.chunk_type !== 'endpoint') return null;
  const segments = Array.isArray(metadata.path_segments) ? (metadata.path_segments as string[]) : [];
  const target = segments.filter((segment) => !/^(bulk|batch)$/i.test(segment)).at(-1) ?? '';
  return `${String(metadata.method)} ${String(metadata.operation_type)} ${target}`;
}

/**
 * The operations among the hits that do what the first operation does to the same resource
 * (same method, operation type and target), in retrieval's order.
 */
export function sameOperations(hits: readonly RetrievalHit[]): string[] {
  const operations = hits.filter((hit) => hit.operation !== undefined);
  const first = operations[0] ? operationShape(operations[0]) : null;
  if (!first) return [];
  return [...new Set(operations.filter((hit) => operationShape(hit) === first).map((hit) => hit.sourcePath))];
}

/** The longest example a how-to answer carries. */
const MAX_EXAMPLE_LINES = 12;

/** The code block that follows a passage's last quoted unit closely (within two units), if short. */
function followingCode(source: Source, units: readonly TextUnit[]): string | null {
  const last = Math.max(...units.map((unit) => unit.position));
  const siblings = splitUnits(source.text);
  const code = siblings.slice(last + 1, last + 3).find((unit) => unit.kind === 'code');
  if (!code || code.text.split('\n').length > MAX_EXAMPLE_LINES + 2) return null;
  return source.text.includes(code.text) ? code.text : null;
}

/** Stems this long or longer may match by prefix ("intern" and "internat"). */
const MIN_ALIAS_LENGTH = 4;

/**
 * A focus word no unit contains may still be there under another stemmer's cut: the rewrite
 * corrects typos to search-engine lexemes ("intern", "dimens"), which are prefixes of, or
 * extend, our stems ("internat", "dimension"). Such a word is taken to be in every unit that
 * holds a stem it shares a prefix with, so the typo question is read as the corrected one.
 */
function alias(
  focus: readonly string[],
  candidates: readonly Candidate[],
  frequency: Map<string, number>,
): void {
  const known = [...frequency.keys()];
  for (const stem of focus) {
    if (frequency.has(stem) || stem.length < MIN_ALIAS_LENGTH || /\d/.test(stem)) continue;
    const aliases = new Set(
      known.filter(
        (other) => other.length >= MIN_ALIAS_LENGTH && (other.startsWith(stem) || stem.startsWith(other)),
      ),
    );
    if (aliases.size === 0) continue;
    let count = 0;
    for (const candidate of candidates) {
      if (![...aliases].some((other) => candidate.stems.has(other))) continue;
      candidate.stems.add(stem);
      count++;
    }
    frequency.set(stem, count);
  }
}

/**
 * Names written as code in the question (`ShipmentStatus`, `pickup_cutoff`, `Money.amount`): a
 * passage that repeats one verbatim is about that very thing.
 */
function codeNames(query: string): string[] {
  return [
    ...query.matchAll(
      /[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)+|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g,
    ),
  ].map((match) => match[0]);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const once = (pattern: RegExp) => new RegExp(pattern.source, pattern.flags.replace('g', ''));

/** Whether a unit may be quoted as an answer sentence at all. */
function quotable(unit: TextUnit, suspicious: boolean): boolean {
  if (unit.text.length < MIN_UNIT_LENGTH || unit.text.length > MAX_UNIT_LENGTH) return false;
  if (suspicious && findInjections(unit.text).length > 0) return false;
  // A heading is a label, not an answer; an operation's heading comes in with the chunk's
  // sentences (see `expand`), never alone.
  if (unit.kind === 'heading') return false;
  // A list item or a table row may be short ("Growth | 300 | 25"); a sentence may not.
  return (
    !isFragment(unit.text, unit.kind === 'sentence' ? undefined : MIN_ITEM_WORDS) && !isQuestion(unit.text)
  );
}

function baseScore(
  source: Source,
  unit: TextUnit,
  shape: QuestionShape,
  operations: boolean,
  identifiers: ReadonlyArray<{ strong: RegExp; weak: RegExp | null }>,
  inOperation: boolean,
  focus: readonly string[],
): number {
  const { asks } = shape;
  const text = unit.text;
  // A name the question writes exactly is matched in the unit or in the title it is read under:
  // on pg_dumpall's page, "`-r`, `--roles-only`: …" is about pg_dumpall without repeating it.
  const named = `${source.title ?? ''}\n${text}`;
  const exact = identifiers.some((identifier) => identifier.strong.test(named))
    ? 0.4
    : identifiers.some((identifier) => identifier.weak?.test(named))
      ? 0.2
      : 0;
  let fit = 0;
  if (asks.has('number') && hasNumber(text)) fit += NUMBER_FIT;
  if (asks.has('definition') && isDefinitional(text))
    fit += definesFocus(text, focus) ? DEFINES_FOCUS_FIT : WEAK_FIT;
  if ((asks.has('list') || asks.has('steps')) && unit.kind !== 'sentence') fit += WEAK_FIT;
  if (asks.has('yes-no') && isDecisive(text)) fit += DECISIVE_FIT;
  if (asks.has('reason') && givesReason(text)) fit += KIND_FIT;
  // Which option: the term line of a definition list ("`-a`, `--data-only`: Dump only the data")
  // names the option and says what it does; any unit naming a flag or a keyword helps less.
  if (asks.has('option'))
    fit += OPENS_WITH_TERM.test(text) ? DEFINES_FOCUS_FIT : NAMES_OPTION.test(text) ? WEAK_FIT : 0;
  // A difference is told by a sentence that names both sides.
  // The page a sentence is on counts as named ("It has the same effect as an unqualified DELETE"
  // on TRUNCATE's page compares TRUNCATE with DELETE).
  if (asks.has('difference') && shape.compared && namesBoth(`${source.title ?? ''} ${text}`, shape.compared))
    fit += DEFINES_FOCUS_FIT;
  if (operations && (OPERATION_REFERENCE.test(text) || inOperation)) fit += KIND_FIT;
  const reference = source.origin === 'reference' ? -0.1 : 0;
  // A catalogue line that names many codes at once ("`400`: malformed (`A`, `B`, `C`)") says a
  // code exists, not what it means: a statement about it is the better answer, unless a list is
  // asked for.
  // So does an index line that names the very identifier asked about and little else ("Codes this
  // operation documents: `X`").
  const novel = exact > 0 ? contentStems(text).filter((stem) => !focus.includes(stem)).length : Infinity;
  const catalogue =
    !asks.has('list') && ((text.match(/`[^`]+`/g)?.length ?? 0) >= CATALOGUE_CODES || novel < INDEX_WORDS)
      ? -0.1
      : 0;
  return 0.2 / (1 + source.rank) + exact + fit + reference + catalogue;
}

/** A definition-list term line: `` `-j`, `--jobs`: … `` or a signature `copytree(src, dst, …): …`. */
const OPENS_WITH_TERM = /^(`[^`]+`(,\s*`[^`]+`)*|[\w.]+\([^)]*\))\s*:\s/;
/** A flag (`--jobs`, `-j`) or a keyword written as code (`CONCURRENTLY`). */
const NAMES_OPTION = /(^|[\s`(])--?[A-Za-z][\w-]*|`[A-Z][A-Z_ ]{2,}`|`\w+=/;

function namesBoth(text: string, [left, right]: [string[], string[]]): boolean {
  const stems = new Set(contentStems(text));
  return left.some((word) => stems.has(word)) && right.some((word) => stems.has(word));
}

/** "An idempotency key is …", "**Cursor** — a token that …": the unit opens by defining the focus. */
function definesFocus(text: string, focus: readonly string[]): boolean {
  const trimmed = text.trim();
  const subject =
    // "**Cursor** — a token that …", a manual's "pg_rewind — synchronize a data directory …", a
    // definition list's "`CONCURRENTLY`: When this option is used …".
    /^(?:\*\*([^*]{1,60})\*\*\s*[—–:-]\s*)/.exec(trimmed) ??
    /^([^—–:]{1,60}?)\s+[—–]\s+\S/.exec(trimmed) ??
    /^(`[^`]{1,60}`(?:,\s*`[^`]{1,60}`)*|[\w.]+\([^)]{0,120}\))\s*:\s/.exec(trimmed) ??
    // "An idempotency key is …", "pg_resetwal clears the write-ahead log …", "The DO statement is used to …".
    /^(?:an?\s+|the\s+)?([^,;:.]{1,60}?)\s+(?:is|are|means|refers to|denotes|stands for|(?!is\b|are\b)[a-z]+(?:es|s)\b)/.exec(
      trimmed,
    );
  if (!subject) return false;
  const words = contentStems(subject[1] ?? subject[2] ?? '');
  return words.length > 0 && words.some((word) => focus.includes(word));
}

/** "Creates a location." + 2 → "Creates a location [2]." */
export function withCitation(text: string, index: number): string {
  const trimmed = text.trim();
  const match = /([.!?:;]+)$/.exec(trimmed);
  const body = match ? trimmed.slice(0, -match[1]!.length) : trimmed;
  // A clause ending in : or ; becomes a sentence of its own.
  const end = match && match[1] !== ':' && match[1] !== ';' ? match[1] : '.';
  return `${body} [${index}]${end}`;
}

/** The request example of the first API operation the answer cites, if it has one. */
function requestExample(
  sources: readonly Source[],
  cited: Synthesis['cited'],
): { source: Source; code: string } | null {
  const operation = cited.find((entry) => entry.source.sourceId.includes('#paths/'))?.source.sourceId;
  if (!operation) return null;
  for (const source of sources) {
    if (source.sourceId !== operation || !source.text.includes('Example request body')) continue;
    const code = splitUnits(source.text).find((unit) => unit.kind === 'code');
    if (code) return { source, code: code.text };
  }
  return null;
}

/** The retrieved passage that defines a numbered entity (`**Algorithm 3.2.**`), if any. */
function definition(sources: readonly Source[], entity: { type: string; number: string }): Source | null {
  // "**Algorithm 3.2.**" opens a listing, "**Equation 7.5**" a display equation: a bold label the
  // graph's own reader resolves to the entity asked about (it reads "Equation" as a Formula).
  const defines = (text: string) =>
    [...text.matchAll(/\*\*([^*\n]{1,40})\*\*/g)].some((match) => {
      const reference = parseEntityReference(match[1]!.replace(/\.$/, ''));
      return reference?.type === entity.type && reference.number === entity.number;
    });
  return sources.find((source) => source.origin !== 'tool' && defines(source.text)) ?? null;
}

/** The code listing that follows a numbered entity's bold definition (`**Algorithm 3.2.**`). */
function entityListing(
  sources: readonly Source[],
  entity: { type: string; number: string },
): { source: Source; code: string } | null {
  const marker = `**${entity.type} ${entity.number}.**`;
  for (const source of sources) {
    const at = source.origin === 'tool' ? -1 : source.text.indexOf(marker);
    if (at === -1) continue;
    const code = /```[^\n]*\n[\s\S]*?\n```/.exec(source.text.slice(at));
    // Only a listing that belongs to the definition: before any later heading.
    if (code && !/\n#{1,6} /.test(source.text.slice(at, at + code.index))) return { source, code: code[0] };
    return null;
  }
  return null;
}
