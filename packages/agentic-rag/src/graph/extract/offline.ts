import { ErrorCode, RagError } from '../../errors/index.js';
import type { DocumentFacts } from '../facts.js';
import { entityKey, mergeFacts } from '../resolve.js';
import { findAcronymDefinitions, scanAcronyms, scanLongForms } from './offline/acronyms.js';
import { coMentions, dropHeadingOnly, toEntityFacts } from './offline/assembly.js';

export { MAX_RELATED_PER_UNIT } from './offline/assembly.js';
import { scanCodeSpan, scanProseCodeNames, typeCodeNames } from './offline/code-names.js';
import { Collector } from './offline/collector.js';
import { scanCapitalisedRuns, scanDefinedTerms } from './offline/concepts.js';
import { scanCurlCommands, scanProseEndpoints } from './offline/endpoints.js';
import { analyseLayout } from './offline/layout.js';

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

let lastExtraction: { text: string; title: string | undefined; facts: DocumentFacts } | null = null;

/**
 * extractEntities, remembering the last document: the offline extractor, the doc-page extractor
 * and the model's grounding all read the same document's offline facts one after another. The
 * facts are shared, so callers must not modify them.
 */
export function offlineFactsOf(text: string, options: ExtractEntitiesOptions = {}): DocumentFacts {
  if (lastExtraction?.text !== text || lastExtraction.title !== options.title) {
    lastExtraction = { text, title: options.title, facts: extractEntities(text, options) };
  }
  return lastExtraction.facts;
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
    return Promise.resolve(offlineFactsOf(input.text, options));
  }
}
