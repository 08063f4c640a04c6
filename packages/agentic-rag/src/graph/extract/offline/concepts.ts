import { entityKey } from '../../resolve.js';
import type { Collector } from './collector.js';
import type { Region, Layout } from './layout.js';

/** Concepts: capitalised names and glossary terms. */

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
export function scanCapitalisedRuns(layout: Layout, collector: Collector, titleKey: string | null): void {
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

export function scanDefinedTerms(text: string, layout: Layout, collector: Collector): void {
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
    collector.addPhraseUses(prose, term, '\\s-', { type: 'Concept', name: term });
  }
}
