import { extractIdentifiers } from '../../retrieve/index.js';
import { findInjections } from '../injection.js';
import type { Source } from '../sources.js';
import { contentStems, overlap, splitUnits, type TextUnit } from '../text.js';

export interface Synthesis {
  answer: string;
  /** The sources cited, with the [n] each got (in order of first use). */
  cited: Array<{ index: number; source: Source; quote: string }>;
}

const MAX_SENTENCES = 5;
const MAX_PER_SOURCE = 3;
const MAX_UNIT_LENGTH = 600;
const MIN_UNIT_LENGTH = 12;
const NEAR_DUPLICATE = 0.6;
const MIN_COVERAGE = 0.34;
const OPERATION_HEADING = /^(GET|POST|PUT|PATCH|DELETE) \//;

interface Scored {
  source: Source;
  unit: TextUnit;
  stems: Set<string>;
  score: number;
  /** Weighted share of the question's words the unit contains. */
  coverage: number;
}

/**
 * The answer without a model: the sentences, list items and headings of the retrieved chunks
 * that best cover the question, each quoted verbatim and ending with the [n] of its chunk.
 * A unit scores by the question words it contains (rarer words across the context count more),
 * its chunk's rank, and the exact identifiers it repeats (`POST /locations`, `Algorithm 3.2`).
 * Near-duplicates are dropped, no chunk supplies more than three, units carrying injected
 * instructions are never quoted, and the chosen ones are read in chunk order, then text order.
 * For an endpoint question the request example of the best cited operation is appended.
 */
export function extractiveAnswer(
  query: string,
  sources: readonly Source[],
  options: { intent: string; entity?: { type: string; number: string } | null },
): Synthesis {
  // Arithmetic is the calc tool's: its numbers say nothing about which passage is relevant.
  // Arithmetic is the calc tool's: its numbers say nothing about which passage is relevant; and
  // "endpoint" in an endpoint question names the kind of answer, not its subject.
  const wanted = [...new Set(contentStems(query))].filter(
    (stem) =>
      !(options.intent === 'arithmetic' && /\d/.test(stem)) &&
      !(options.intent === 'endpoint' && stem === 'endpoint'),
  );
  const once = (pattern: RegExp) => new RegExp(pattern.source, pattern.flags.replace('g', ''));
  const identifiers = extractIdentifiers(query).map((identifier) => ({
    strong: once(identifier.strong),
    weak: identifier.weak ? once(identifier.weak) : null,
  }));
  const units: Scored[] = sources.flatMap((source) =>
    // A tool's output is data too (a fetched page may carry an injection): quoted only when clean.
    source.origin === 'tool' && findInjections(source.text).length === 0
      ? [
          {
            source,
            unit: { kind: 'sentence' as const, text: source.text, position: 0 },
            stems: new Set<string>(),
            score: 10,
            coverage: 1,
          },
        ]
      : splitUnits(source.text)
          .filter(
            (unit) =>
              unit.kind !== 'code' &&
              unit.text.length >= MIN_UNIT_LENGTH &&
              unit.text.length <= MAX_UNIT_LENGTH &&
              findInjections(unit.text).length === 0,
          )
          .map((unit) => ({ source, unit, stems: new Set(contentStems(unit.text)), score: 0, coverage: 0 })),
  );
  const frequency = new Map<string, number>();
  for (const { stems } of units)
    for (const stem of stems) frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
  const weight = (stem: string) => Math.log(1 + units.length / (1 + (frequency.get(stem) ?? 0)));
  const total = wanted.reduce((sum, stem) => sum + weight(stem), 0) || 1;

  for (const scored of units) {
    if (scored.source.origin === 'tool') continue;
    const covered = wanted
      .filter((stem) => scored.stems.has(stem))
      .reduce((sum, stem) => sum + weight(stem), 0);
    if (covered === 0) continue;
    const text = scored.unit.text;
    const exact = identifiers.some((identifier) => identifier.strong.test(text))
      ? 0.4
      : identifiers.some((identifier) => identifier.weak?.test(text))
        ? 0.2
        : 0;
    // An operation's heading (`POST /locations — Create a location`) is the answer to an
    // endpoint question; other headings are only labels.
    const operation = options.intent === 'endpoint' && OPERATION_HEADING.test(text);
    const heading = scored.unit.kind === 'heading' ? (exact > 0 || operation ? 0.15 : -0.25) : 0;
    const reference = scored.source.origin === 'reference' ? -0.1 : 0;
    scored.score = (0.6 * covered) / total + 0.25 / (1 + scored.source.rank) + exact + heading + reference;
    scored.coverage = covered / total;
  }

  const chosen: Scored[] = [];
  const perSource = new Map<string, number>();
  // A passage that shares only a word or two of a longer question is not an answer to it, unless
  // nothing shares more.
  const scoredUnits = units.filter((scored) => scored.score > 0);
  const strong = scoredUnits.filter(
    (scored) => scored.coverage >= MIN_COVERAGE || scored.source.origin === 'tool',
  );
  const candidates = (strong.length > 0 ? strong : scoredUnits).sort(
    (left, right) => right.score - left.score,
  );
  for (const candidate of candidates) {
    if (chosen.length >= MAX_SENTENCES) break;
    const key = candidate.source.chunkId;
    if ((perSource.get(key) ?? 0) >= MAX_PER_SOURCE) continue;
    // Tool results carry no stems, and two empty sets overlap fully: a second tool is no duplicate.
    if (
      candidate.source.origin !== 'tool' &&
      chosen.some((picked) => overlap(picked.stems, candidate.stems) > NEAR_DUPLICATE)
    )
      continue;
    chosen.push(candidate);
    perSource.set(key, (perSource.get(key) ?? 0) + 1);
  }
  chosen.sort(
    (left, right) => left.source.rank - right.source.rank || left.unit.position - right.unit.position,
  );

  const cited: Synthesis['cited'] = [];
  const indexOf = (source: Source, quote: string) => {
    const known = cited.find((entry) => entry.source.chunkId === source.chunkId);
    if (known) return known.index;
    cited.push({ index: cited.length + 1, source, quote });
    return cited.length;
  };
  const lines = chosen.map((scored) =>
    withCitation(scored.unit.text, indexOf(scored.source, scored.unit.text)),
  );
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
