import { findInjections } from '../injection.js';
import type { Source } from '../sources.js';
import { contentStems, splitSentences } from '../text.js';
import type { SelfCheck } from '../types.js';

/** A sentence is supported when its cited sources contain this share of its content words. */
const SUPPORT = 0.7;
/** The answer passes with this share of supported sentences (and nothing else wrong). */
const PASSING_COVERAGE = 0.8;

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

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
 * instructions are reported even when the answer left them alone.
 */
export function selfCheck(
  answer: string,
  cited: ReadonlyArray<{ index: number; source: Source }>,
  sources: readonly Source[],
): SelfCheck {
  const warnings: string[] = [];
  const byIndex = new Map(cited.map((entry) => [entry.index, entry.source]));
  for (const source of sources) {
    const injected = findInjections(source.text);
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
  for (const part of parts) {
    if (part.startsWith('```')) {
      sentences++;
      const code = part.trim();
      if (!lastCited.some((source) => source.text.includes(code))) {
        unsupported.push(code.split('\n')[0]!);
        warnings.push('a code block in the answer is not in the source cited before it');
      }
      continue;
    }
    for (const sentence of splitSentences(part.replace(/\s+/g, ' '))) {
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
      const known = new Set(
        sources.flatMap((source) => contentStems(`${source.title ?? ''} ${source.text}`)),
      );
      const supported =
        words.length === 0 || words.filter((word) => known.has(word)).length / words.length >= SUPPORT;
      if (!supported) unsupported.push(sentence);
    }
  }
  const coverage = sentences === 0 ? 0 : (sentences - unsupported.length) / sentences;
  const citationsValid = !warnings.some((warning) => warning.startsWith('citation ['));
  const echoed = warnings.includes('the answer repeats an instruction found in a source');
  return {
    passed: sentences > 0 && coverage >= PASSING_COVERAGE && citationsValid && !echoed,
    citationCoverage: Number(coverage.toFixed(4)),
    unsupportedSentences: unsupported,
    warnings: [...new Set(warnings)],
  };
}
