import type { Collector } from './collector.js';
import { type AcronymDefinition } from './collector.js';
import { HTTP_METHODS } from './endpoints.js';
import type { Layout } from './layout.js';

/** Acronyms. */

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
export function findAcronymDefinitions(prose: string, collector: Collector): AcronymDefinition[] {
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

export function scanAcronyms(layout: Layout, collector: Collector, defined: ReadonlySet<string>): void {
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
export function scanLongForms(
  prose: string,
  definitions: readonly AcronymDefinition[],
  collector: Collector,
): void {
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
    collector.addPhraseUses(prose, longForm, '\\s\\-–', { type: 'Acronym', name: acronym });
  }
}
