import { findInjections } from '../quarantine/index.js';
import type { Source } from '../answer-types.js';

/** Per source object: the injected instructions found in its text, and the text they were found in. */
const found = new WeakMap<Source, { text: string; injections: string[] }>();

/**
 * The instructions injected into a source's text, detected once per source: the detector is
 * costly, and synthesis and the self-check both ask about every source of a run. A source whose
 * text changed since (a new object is the usual way) is read again.
 */
export function injectionsIn(source: Source): string[] {
  const known = found.get(source);
  if (known && known.text === source.text) return known.injections;
  const injections = findInjections(source.text);
  found.set(source, { text: source.text, injections });
  return injections;
}
