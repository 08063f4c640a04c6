/**
 * Choosing the passage an extractive answer quotes: a greedy cover of the question's focus that
 * stays with the documents already quoted, the rule that says when nothing addresses the question,
 * and the expansion of each chosen unit into what it needs to be read alone.
 */

import type { Source } from '../answer-types.js';
import { overlap, type TextUnit } from '../text.js';
import { findInjections } from '../quarantine/index.js';
import type { Ask } from '../../understand/index.js';
import {
  hasNumber,
  isDefinitional,
  isFragment,
  isLeadIn,
  isQuestion,
  MIN_ITEM_WORDS,
  needsAntecedent,
  OPERATION_REFERENCE,
} from './unit-shape.js';

/** Units chosen for their own sake; an item's other sentences and antecedents come on top. */
const MAX_PICKS = 6;
/** Units quoted in all, expansions included: an answer, not a page. */
const MAX_QUOTED = 12;
const MAX_PER_SOURCE = 4;
/** The longest unit quoted: longer ones are not sentences but blobs. */
export const MAX_UNIT_LENGTH = 600;
/** Sentences of the first pick's paragraph read on after it. */
const READ_ON = 2;
/** A list quoted whole stops after this many items. */
const MAX_LIST_ITEMS = 8;
const NEAR_DUPLICATE = 0.6;
/** A unit from a new source must cover this share of the focus, for a question of several parts. */
const MIN_COVERAGE = 0.34;
/** ... and this share for a question of one part; also what the "not addressed" rule calls enough. */
const HALF = 0.5;
/** A further unit must add this share of the focus not yet covered. */
const MIN_GAIN = 0.12;
/** A unit from a document not yet quoted must add more: a new citation has to earn its place. */
const NEW_SOURCE_GAIN = 0.2;
/** Staying with a source already quoted: one coherent passage over a collage. */
const SAME_SOURCE = 0.12;
/** What a figure is worth to a number question (see the fits in synthesize.ts). */
export const NUMBER_FIT = 0.15;
/** The first unit covers at least this share of what the best-covering unit covers. */
const NEAR_BEST = 0.6;

/** A quotable unit of a retrieved chunk, with what the choice needs to know about it. */
export interface Candidate {
  source: Source;
  unit: TextUnit;
  /** Every unit of the candidate's chunk, in order: its neighbours come from here. */
  siblings: readonly TextUnit[];
  /**
   * The unit's stems, with those of what it is read under: the chunk's title, its section heading,
   * the source's own question when it answers one (an FAQ).
   */
  stems: Set<string>;
  /** The unit's own stems: two units are duplicates by what they say, not by where they sit. */
  own: ReadonlySet<string>;
  /** What the unit is worth whatever it covers: rank, kind of answer, identifiers, penalties. */
  base: number;
  /** The heading of the API operation the chunk describes, if it is an operation's chunk. */
  operation: TextUnit | null;
  /** Whether the unit repeats a name the question writes as code (`ShipmentStatus`). */
  named: boolean;
  /** Whether the unit's source carries an injected instruction somewhere (its units are checked). */
  suspicious: boolean;
}

/**
 * Greedy cover of the focus: each step takes the unit that adds the most of what is not yet
 * covered, plus what it is worth on its own, preferring chunks already quoted.
 */
export function choose(
  candidates: readonly Candidate[],
  asks: ReadonlySet<Ask>,
  share: (stems: ReadonlySet<string>, except: ReadonlySet<string>) => number,
  operationRequired: boolean,
  operationPreferred: boolean,
  named: boolean,
  multiPart: boolean,
): Candidate[] {
  const picks: Candidate[] = [];
  const covered = new Set<string>();
  const none = new Set<string>();
  const perSource = new Map<string, number>();
  let numbered = false;
  // A question that asks which operation to call is answered first by one that covers it.
  const relevant = candidates.filter((candidate) => share(candidate.stems, none) > 0);
  const covering = relevant.filter(
    (candidate) => candidate.operation || OPERATION_REFERENCE.test(candidate.unit.text),
  );
  // Worded as a request for an operation, the question is answered by one or not at all; found to
  // be an API question only by its subject (retrieval's), it falls back to the prose.
  // Retrieval ranked the operations by what the question asks done to what it names (through the
  // spec's own words, which the operation's text need not repeat): the answer opens with the
  // first of them, not with whichever operation's text repeats more of the question's words.
  const ranked = candidates.filter((candidate) => candidate.operation);
  const lead = Math.min(...ranked.map((candidate) => candidate.source.rank));
  const leading = ranked.filter((candidate) => candidate.source.rank === lead);
  const operationFirst = operationRequired || (operationPreferred && ranked.length > 0);
  const operations = operationFirst ? (leading.length > 0 ? leading : covering) : relevant;
  // A question that names something as code is answered first by a unit that names it, if any.
  const namers = operations.filter((candidate) => candidate.named);
  const first = named && namers.length > 0 ? namers : operations;
  // The first unit is one of those that cover the focus best; among them, what the question asks
  // for, the rank and the identifiers decide.
  const bestShare = Math.max(0, ...first.map((candidate) => share(candidate.stems, none)));
  let pool = first.filter((candidate) => share(candidate.stems, none) >= NEAR_BEST * bestShare);
  while (picks.length < MAX_PICKS) {
    let best: { candidate: Candidate; value: number } | null = null;
    for (const candidate of pool) {
      if (picks.includes(candidate)) continue;
      if ((perSource.get(candidate.source.chunkId) ?? 0) >= MAX_PER_SOURCE) continue;
      // A unit counts with what it is read under (title, heading, FAQ question): once a passage
      // of a document is quoted, its citation carries that context, so the rest must add more.
      const gain = share(candidate.stems, covered);
      // A number question whose answer holds no figure yet reads on to the chunk's figure.
      const figure = !numbered && asks.has('number') && hasNumber(candidate.unit.text);
      // Asked which operation to call, the answer is operations: prose joins only from their own
      // chunks. A question about a thing it names as code (`ShipmentStatus`) is answered by passages
      // that name it.
      const newChunk = !picks.some((pick) => pick.source.sourceId === candidate.source.sourceId);
      const offTopic =
        newChunk &&
        ((operationFirst && !candidate.operation && !OPERATION_REFERENCE.test(candidate.unit.text)) ||
          (named && !candidate.named));
      if (picks.length > 0 && offTopic) continue;
      if (
        picks.length > 0 &&
        gain < threshold(candidate, picks, share(candidate.stems, none), figure, multiPart)
      )
        continue;
      if (picks.some((picked) => overlap(picked.own, candidate.own) > NEAR_DUPLICATE)) continue;
      const number = asks.has('number') && hasNumber(candidate.unit.text);
      // Once the answer holds a figure, another figure is worth only what it covers.
      const value =
        0.6 * gain +
        candidate.base -
        (numbered && number ? NUMBER_FIT : 0) +
        (picks.some((pick) => pick.source.sourceId === candidate.source.sourceId) ? SAME_SOURCE : 0);
      if (!best || value > best.value) best = { candidate, value };
    }
    if (!best) break;
    picks.push(best.candidate);
    perSource.set(best.candidate.source.chunkId, (perSource.get(best.candidate.source.chunkId) ?? 0) + 1);
    for (const stem of best.candidate.stems) covered.add(stem);
    if (hasNumber(best.candidate.unit.text)) numbered = true;
    // After the first, any unit that adds to the cover may join, not only the strong ones.
    pool = relevant;
  }
  return picks;
}

/**
 * What a further unit must add: nothing more for the figure a number question still lacks, in a
 * document already quoted; anything in a paragraph already quoted (it reads on from it), half
 * the usual share elsewhere in a document already quoted, and from a new document the full share,
 * and only if the unit covers half the focus on its own (as the evidence gate asks of a source),
 * or a third of it for a question of several parts (each source may answer one): a new source is
 * cited only when it answers.
 */
function threshold(
  candidate: Candidate,
  picks: readonly Candidate[],
  coverage: number,
  figure: boolean,
  multiPart: boolean,
): number {
  // A document's chunks are one source to its reader (and to its citation).
  const sameDocument = picks.filter((pick) => pick.source.sourceId === candidate.source.sourceId);
  if (figure && sameDocument.length > 0) return 0;
  if (
    sameDocument.some(
      (pick) => pick.source.chunkId === candidate.source.chunkId && pick.unit.block === candidate.unit.block,
    )
  )
    return Number.MIN_VALUE;
  if (sameDocument.length > 0) return MIN_GAIN / 2;
  return coverage >= (multiPart ? MIN_COVERAGE : HALF) ? NEW_SOURCE_GAIN : Number.POSITIVE_INFINITY;
}

/**
 * Why the chosen units do not answer, or null when they do: the first unit's document covers none of
 * the focus's distinctive words (those rarer than the median among the words the context has at all), or an
 * operation is asked for and no chosen unit names or describes one.
 */
export function unaddressed(
  picks: readonly Candidate[],
  candidates: readonly Candidate[],
  focus: readonly string[],
  weight: (stem: string) => number,
  share: (stems: ReadonlySet<string>, except: ReadonlySet<string>) => number,
  asks: ReadonlySet<Ask>,
  /** An API question: an operation retrieval matched through the spec's own words may lead. */
  apiQuestion = false,
): string | null {
  // Retrieval matched the operation through the spec's vocabulary (its tags' descriptions, its
  // summary, its fields), which the operation's chunk need not repeat: "set up a new store" is
  // POST /locations because the Locations tag says stores are locations.
  if (apiQuestion && picks[0]!.operation !== null) return null;
  const present = focus.filter((stem) => candidates.some((candidate) => candidate.stems.has(stem)));
  const weights = present.map(weight).sort((left, right) => left - right);
  const median = weights[Math.floor((weights.length - 1) / 2)] ?? 0;
  const distinctive = present.filter((stem) => weight(stem) >= median);
  // The passage is the first unit's document (its retrieved chunks): a unit may leave to its
  // neighbours what it is about.
  const passage = new Set(
    candidates
      .filter((candidate) => candidate.source.sourceId === picks[0]!.source.sourceId)
      .flatMap((candidate) => [...candidate.stems]),
  );
  if (
    distinctive.length > 0 &&
    !distinctive.some((stem) => passage.has(stem)) &&
    share(picks[0]!.stems, new Set()) < HALF
  )
    return "the best passage covers none of the question's distinctive words";
  if (
    asks.has('operation') &&
    !picks.some((pick) => pick.operation !== null || OPERATION_REFERENCE.test(pick.unit.text))
  )
    return 'no API operation covers the question';
  return null;
}

/**
 * The chosen units with what they need to be read alone, grouped by chunk in the order the chunks
 * were first chosen and in text order within each: a list item's other sentences, the list after
 * a lead-in (the whole list when steps or a list are asked for), the sentence a "this" or "it"
 * refers to, and the operation heading that names what an operation's chunk describes.
 */
export function expand(
  picks: readonly Candidate[],
  asks: ReadonlySet<Ask>,
): Array<{ source: Source; units: TextUnit[] }> {
  const groups: Array<{ source: Source; units: Map<number, TextUnit> }> = [];
  let count = 0;
  const readable = (unit: TextUnit | undefined, suspicious: boolean): unit is TextUnit =>
    !!unit &&
    unit.kind !== 'code' &&
    unit.kind !== 'heading' &&
    !(suspicious && findInjections(unit.text).length > 0) &&
    unit.text.length <= MAX_UNIT_LENGTH &&
    !isFragment(unit.text, unit.kind === 'sentence' ? undefined : MIN_ITEM_WORDS) &&
    !isQuestion(unit.text);
  for (const [order, pick] of picks.entries()) {
    let group = groups.find((entry) => entry.source.chunkId === pick.source.chunkId);
    if (!group) {
      group = { source: pick.source, units: new Map() };
      groups.push(group);
    }
    const { siblings, unit } = pick;
    const clean = (sibling: TextUnit | undefined): sibling is TextUnit => readable(sibling, pick.suspicious);
    const wanted: TextUnit[] = [];
    if (pick.operation && (order === 0 || asks.has('operation'))) wanted.push(pick.operation);
    if (needsAntecedent(unit.text) && clean(siblings[unit.position - 1]))
      wanted.push(siblings[unit.position - 1]!);
    wanted.push(unit);
    // A definition, a difference or a reason is explained by a paragraph, not one sentence of it:
    // the first pick reads on ("…, but since it does not actually scan the tables it is faster.
    // Furthermore, it reclaims disk space immediately …").
    // (A definition reads on only from a sentence that defines.)
    const explains =
      asks.has('difference') || asks.has('reason') || (asks.has('definition') && isDefinitional(unit.text));
    if (order === 0 && unit.kind === 'sentence' && explains)
      wanted.push(
        ...siblings
          .filter((sibling) => sibling.block === unit.block && sibling.position > unit.position)
          .slice(0, READ_ON)
          .filter(clean),
      );
    if (unit.kind === 'item')
      wanted.push(...siblings.filter((sibling) => sibling.block === unit.block && clean(sibling)));
    const wholeList = unit.kind === 'item' && (asks.has('steps') || asks.has('list'));
    // A lead-in or a table's bold caption ("**Table 19.2.** Belief trajectory …") is read with
    // the list or table it introduces.
    const introduces =
      isLeadIn(unit.text) ||
      (/^\*\*[^*]+\*\*/.test(unit.text) && siblings[unit.position + 1]?.kind === 'row');
    if (introduces || wholeList) wanted.push(...listRun(siblings, unit).filter(clean));
    for (const item of wanted) {
      if (group.units.has(item.position)) continue;
      if (count >= MAX_QUOTED) break;
      group.units.set(item.position, item);
      count++;
    }
  }
  return groups.map(({ source, units }) => ({
    source,
    units: [...units.values()].sort((left, right) => left.position - right.position),
  }));
}

/**
 * The run of list items or table rows a unit belongs to or introduces, with its lead-in, at most
 * MAX_LIST_ITEMS members long.
 */
function listRun(siblings: readonly TextUnit[], unit: TextUnit): TextUnit[] {
  const member = unit.kind === 'item' || unit.kind === 'row' ? unit.kind : siblings[unit.position + 1]?.kind;
  if (member !== 'item' && member !== 'row') return [];
  let first = unit.kind === member ? unit.position : unit.position + 1;
  while (first > 0 && siblings[first - 1]?.kind === member) first--;
  const run: TextUnit[] = [];
  // The sentence that introduces the list ("Rotate a key without downtime:") reads with it.
  const leadIn = siblings[first - 1];
  if (leadIn && leadIn.kind === 'sentence' && isLeadIn(leadIn.text)) run.push(leadIn);
  const blocks = new Set<number>();
  for (let position = first; position < siblings.length; position++) {
    const sibling = siblings[position]!;
    if (sibling.kind !== member) break;
    blocks.add(sibling.block);
    if (blocks.size > MAX_LIST_ITEMS) break;
    run.push(sibling);
  }
  return run;
}
