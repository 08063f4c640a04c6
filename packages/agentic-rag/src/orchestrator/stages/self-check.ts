import { findInjections } from '../quarantine/index.js';
import type { Source } from '../answer-types.js';
import { contentStems, splitSentences } from '../text.js';
import type { SelfCheck } from '../types.js';
import { questionShape } from '../../understand/index.js';
import { injectionsIn } from './suspicion.js';
import { isFragment } from './unit-shape.js';

/** A sentence is supported when its cited sources contain this share of its content words. */
const SUPPORT = 0.7;
/** The answer passes with this share of supported sentences (and nothing else wrong). */
const PASSING_COVERAGE = 0.8;

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;
/** A quoted list member may be this short ("`hs_code` (string) [2]."); shorter is a fragment. */
const MIN_SENTENCE_WORDS = 2;
const OFF_FOCUS = 'the answer does not mention what the question is about';
const FRAGMENT = 'the answer quotes a fragment or a heading, not a sentence that answers';

/** The [n] numbers in a text ([1], [2, 3]). */
export function citationMarkers(text: string): number[] {
  return [...text.matchAll(MARKER)].flatMap((match) =>
    match[1]!.split(',').map((part) => Number(part.trim())),
  );
}

/**
 * Checks an answer against what it cites: every sentence must cite a source that exists and
 * contains most of its words; code blocks must be verbatim in the source cited just before them;
 * no sentence may carry an instruction injected into a source. Sources with injected
 * instructions are reported even when the answer left them alone. Given the question, it also
 * checks that the answer answers it: no sentence may be a fragment ("When you exceed the limit.")
 * or a heading of the source it cites (the label before a code block excepted), and the answer
 * must mention the question's focus (see `missesFocus`).
 */
export function selfCheck(
  answer: string,
  cited: ReadonlyArray<{ index: number; source: Source }>,
  sources: readonly Source[],
  options: { query?: string } = {},
): SelfCheck {
  const warnings: string[] = [];
  const byIndex = new Map(cited.map((entry) => [entry.index, entry.source]));
  for (const source of sources) {
    const injected = injectionsIn(source);
    if (injected.length > 0) {
      warnings.push(
        `${source.sourceId} contains instructions aimed at the model ("${injected[0]}"); they were treated as data and not followed`,
      );
    }
  }

  const unsupported: string[] = [];
  let sentences = 0;
  let lastCited: Source[] = [];
  // Code blocks are checked on their own and kept out of the sentence split.
  const parts = answer.split(/(```[\s\S]*?```)/);
  let fragments = 0;
  let headings = 0;
  for (const [index, part] of parts.entries()) {
    if (part.startsWith('```')) {
      sentences++;
      const code = part.trim();
      if (!lastCited.some((source) => source.text.includes(code))) {
        unsupported.push(code.split('\n')[0]!);
        warnings.push('a code block in the answer is not in the source cited before it');
      }
      continue;
    }
    const partSentences = splitSentences(part.replace(/\s+/g, ' '));
    for (const [position, sentence] of partSentences.entries()) {
      const words = contentStems(sentence.replace(MARKER, ' '));
      if (words.length === 0 && citationMarkers(sentence).length === 0) continue;
      sentences++;
      const markers = citationMarkers(sentence);
      const sources = markers
        .map((index) => byIndex.get(index))
        .filter((source): source is Source => !!source);
      const missing = markers.filter((index) => !byIndex.has(index));
      if (missing.length > 0) warnings.push(`citation [${missing.join('], [')}] points at no source`);
      if (findInjections(sentence).length > 0) {
        warnings.push('the answer repeats an instruction found in a source');
        unsupported.push(sentence);
        continue;
      }
      if (sources.length === 0) {
        unsupported.push(sentence);
        continue;
      }
      lastCited = sources;
      // The label of a code block that follows ("Example request body [2].") is not an answer
      // sentence, so it may be short.
      const labelsCode = position === partSentences.length - 1 && /^\s*```/.test(parts[index + 1] ?? '');
      const bare = sentence
        .replace(MARKER, '')
        .replace(/\s+([.!?])/g, '$1')
        .trim();
      if (!labelsCode && isFragment(bare, MIN_SENTENCE_WORDS)) fragments++;
      if (labelsCode || sources.some((source) => isHeading(bare, source.text))) headings++;
      const known = new Set(
        sources.flatMap((source) => contentStems(`${source.title ?? ''} ${source.text}`)),
      );
      const supported =
        words.length === 0 || words.filter((word) => known.has(word)).length / words.length >= SUPPORT;
      if (!supported) unsupported.push(sentence);
    }
  }
  const headingsOnly = sentences > 0 && headings === sentences;
  if (fragments > 0 || headingsOnly) warnings.push(FRAGMENT);
  const offFocus =
    options.query !== undefined &&
    sentences > 0 &&
    missesFocus(
      options.query,
      answer,
      sources,
      cited.map((entry) => entry.source),
    );
  if (offFocus) warnings.push(OFF_FOCUS);
  const coverage = sentences === 0 ? 0 : (sentences - unsupported.length) / sentences;
  const citationsValid = !warnings.some((warning) => warning.startsWith('citation ['));
  const echoed = warnings.includes('the answer repeats an instruction found in a source');
  return {
    passed:
      sentences > 0 &&
      coverage >= PASSING_COVERAGE &&
      citationsValid &&
      !echoed &&
      fragments === 0 &&
      !headingsOnly &&
      !offFocus,
    citationCoverage: Number(coverage.toFixed(4)),
    unsupportedSentences: unsupported,
    warnings: [...new Set(warnings)],
  };
}

/** Whether a sentence is one of the Markdown headings of a source (`## Rate limits`). */
function isHeading(sentence: string, text: string): boolean {
  const bare = sentence.replace(/[.:]$/, '').trim();
  return text
    .split('\n')
    .some((line) => /^#{1,6}\s/.test(line) && line.replace(/^#+\s*/, '').trim() === bare);
}

/** Above three focus words, the answer must hold this share of their weight. */
const FOCUS_SHARE = 0.5;
const SMALL_FOCUS = 3;

/**
 * Whether the answer leaves out what the question is about: its words and the titles of the
 * sources it cites. Only the focus words some source
 * contains count (an extractive answer cannot use a word its sources never do, so a synonym gap is
 * not held against it). A focus of three words or fewer must be there whole: "What happens when I
 * exceed the rate limit?" is not answered by a passage about exceeding some other limit. A longer
 * one must be there for half its weight, rarer words (fewer sources) weighing more.
 */
export function missesFocus(
  query: string,
  answer: string,
  sources: readonly Source[],
  cited: readonly Source[] = [],
): boolean {
  const perSource = sources.map((source) => new Set(contentStems(`${source.title ?? ''} ${source.text}`)));
  const containing = (stem: string) => perSource.filter((stems) => stems.has(stem)).length;
  const focus = questionShape(query).focus.filter((stem) => containing(stem) > 0);
  if (focus.length === 0) return false;
  // A quoted sentence is read under its document's title, which its citation names: a passage
  // quoted from "Initialising LES from a RANS Solution" answers "How do we initialise LES from RANS?"
  // without repeating "initialise" (synthesis chose it that way, and the reader sees the title).
  const said = new Set([
    ...contentStems(answer.replace(MARKER, ' ')),
    ...cited.flatMap((source) => contentStems(source.title ?? '')),
  ]);
  if (focus.length <= SMALL_FOCUS) return focus.some((stem) => !said.has(stem));
  const weight = (stem: string) => Math.log(1 + sources.length / containing(stem));
  const total = focus.reduce((sum, stem) => sum + weight(stem), 0);
  const kept = focus.filter((stem) => said.has(stem)).reduce((sum, stem) => sum + weight(stem), 0);
  return kept < FOCUS_SHARE * total;
}
