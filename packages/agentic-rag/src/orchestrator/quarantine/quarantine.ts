import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChunkSurroundings } from '../../store/index.js';
import type { Source } from '../answer-types.js';
import { quarantinedUnits, type QuarantinedUnit } from './detect.js';

/** Longest unit text a debug listing repeats: enough to recognise it, not a second copy of the page. */
const LISTED_LENGTH = 400;

/** One quarantined unit of one source, as the answer's debug lists it. */
export interface QuarantineRecord {
  sourceId: string;
  chunkId: string;
  /** sentence, item, row, heading, code, comment, or title. */
  kind: string;
  text: string;
  rules: string[];
  reason: string;
  disguises: string[];
}

export interface Quarantine {
  /** The sources with their quarantined units cut out; a source left with nothing is dropped. */
  sources: Source[];
  quarantined: QuarantineRecord[];
}

/**
 * A text with its quarantined units cut out, and the units. With the text's surroundings (the
 * document just before and after a chunk) a sentence cut by a chunk boundary is read whole: an
 * instruction split across two chunks is caught in each, and each cuts its own part of it.
 */
export function quarantineText(
  text: string,
  around?: ChunkSurroundings,
): { text: string; units: QuarantinedUnit[] } {
  const before = around?.before ?? '';
  const units = quarantinedUnits(`${before}${text}${around?.after ?? ''}`)
    .filter((unit) => unit.end > before.length && unit.start < before.length + text.length)
    .map((unit) => ({
      ...unit,
      start: Math.max(0, unit.start - before.length),
      end: Math.min(text.length, unit.end - before.length),
    }));
  if (units.length === 0) return { text, units };
  let clean = '';
  let at = 0;
  for (const unit of units) {
    clean += text.slice(at, unit.start);
    at = unit.end;
  }
  clean += text.slice(at);
  // Cutting a sentence out of a line leaves doubled spaces; cutting a block leaves blank lines.
  clean = clean
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: clean, units };
}

/**
 * Retrieved text is data. Every unit of a source that speaks to the model (addresses it,
 * overrides its instructions, dictates the answer, asks for credentials, sends the reader to a
 * URL with an instruction, or carries tool-call syntax) is cut out before anything downstream
 * reads the source: evidence scoring, tool routing, synthesis (extractive or a model's) and the
 * self-check all see only the rest, which stays citable. A title that speaks to the model is
 * dropped the same way. `surroundings` (by chunk id) lets a sentence cut by a chunk boundary be
 * read whole.
 */
export async function quarantineSources(
  sources: readonly Source[],
  surroundings: ReadonlyMap<string, ChunkSurroundings> = new Map(),
): Promise<Quarantine> {
  const kept: Source[] = [];
  const quarantined: QuarantineRecord[] = [];
  for (const [index, source] of sources.entries()) {
    // Reading a source for injections is the costliest CPU of an answer: one source per turn of
    // the event loop, so concurrent answers interleave with other requests instead of queueing them.
    if (index > 0) await nextTurn();
    const { text, units } = quarantineText(source.text, surroundings.get(source.chunkId));
    const title = source.title ? quarantinedUnits(source.title) : [];
    for (const unit of units) quarantined.push(record(source, unit, unit.kind));
    for (const unit of title) quarantined.push(record(source, unit, 'title'));
    if (units.length === 0 && title.length === 0) {
      kept.push(source);
      continue;
    }
    if (text.trim() === '') continue;
    kept.push({ ...source, text, title: title.length > 0 ? null : source.title });
  }
  return { sources: kept, quarantined };
}

function record(source: Source, unit: QuarantinedUnit, kind: string): QuarantineRecord {
  const flat = unit.text.replace(/\s+/g, ' ').trim();
  return {
    sourceId: source.sourceId,
    chunkId: source.chunkId,
    kind,
    text: flat.length <= LISTED_LENGTH ? flat : `${flat.slice(0, LISTED_LENGTH - 1)}…`,
    rules: unit.rules,
    reason: unit.reason,
    disguises: unit.disguises,
  };
}

/**
 * The warnings a response carries: one per source with quarantined passages, worded as the
 * self-check has always worded an injection ("<source> contains instructions aimed at the model"),
 * so clients that look for it keep finding it.
 */
export function quarantineWarnings(quarantined: readonly QuarantineRecord[]): string[] {
  const bySource = new Map<string, QuarantineRecord[]>();
  for (const entry of quarantined)
    bySource.set(entry.sourceId, [...(bySource.get(entry.sourceId) ?? []), entry]);
  return [...bySource].map(([sourceId, entries]) => {
    const reasons = [...new Set(entries.map((entry) => entry.reason))].slice(0, 3).join('; ');
    const count = entries.length === 1 ? '1 passage' : `${entries.length} passages`;
    return `${sourceId} contains instructions aimed at the model (${reasons}); ${count} quarantined, not used to answer`;
  });
}
