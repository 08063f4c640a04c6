import { ErrorCode, RagError } from '../../errors/index.js';
import type { ChatMessage, Llm } from '../../llm/index.js';
import { silentLogger, type Logger } from '../../telemetry/index.js';
import type { DocumentFacts, EntityFact, EntityRef, RelationFact, Span } from '../facts.js';
import { entityKey, mergeFacts, normalizeEntityName } from '../resolve.js';
import {
  correctionPrompt,
  entityExtractionPrompt,
  parseExtractionReply,
  type ExtractionReply,
} from './llm-prompt.js';
import { extractNumberedEntities, parseEntityReference } from './numbered.js';
import { offlineFactsOf, type EntityExtractor, type ExtractionInput } from './offline.js';

/** Formats the model reads. An OpenAPI spec's facts are its loader's, exact and complete. */
const LLM_KINDS: ReadonlySet<string> = new Set([
  'markdown',
  'text',
  'html',
  'pdf',
  'docx',
  'json-record',
  'knowledge',
]);
const WINDOW_CHARS = 12_000;
/** Windows sent per document: a very long document's tail is left to the offline extractors. */
const MAX_WINDOWS = 8;
const ENDPOINT_NAME = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\/\S*$/;

export interface LlmEntityExtractorOptions {
  llm: Llm;
  /** Further asks after a reply that is not the JSON asked for. Default 1. */
  jsonRetries?: number;
  logger?: Logger;
}

/**
 * Entities and relations a chat model reads from a document, to add what the surface rules of
 * the offline extractors miss (concepts written in plain lower case, products, organisations).
 *
 * The model proposes; the text and the offline extractors decide. A name the text does not
 * contain is dropped (its mentions are found in the text, never taken from the model); a name
 * the offline or numbered extractors already typed keeps their type, so the model cannot split
 * `Resource:location` into a Concept twin; numbered references and malformed endpoints are
 * dropped. The pipeline merges this output after the loader's and the offline extractors', and a
 * merge keeps the first non-empty property, so their properties win too.
 *
 * Transient HTTP failures are retried by the Llm adapter (RAG_LLM_MAX_RETRIES); this class only
 * asks again when the reply is not valid JSON of the expected shape, then throws
 * LLM_OUTPUT_INVALID.
 */
export class LlmEntityExtractor implements EntityExtractor {
  readonly name: string;
  private readonly logger: Logger;

  constructor(private readonly options: LlmEntityExtractorOptions) {
    this.name = `llm-entities-v1:${options.llm.modelId}`;
    this.logger = options.logger ?? silentLogger;
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<DocumentFacts> {
    if (!LLM_KINDS.has(input.kind) || input.text.trim().length === 0) return { entities: [], relations: [] };
    const replies: ExtractionReply[] = [];
    for (const window of windows(input.text).slice(0, MAX_WINDOWS)) {
      replies.push(await this.ask(input, window, signal));
    }
    const facts = groundReplies(input, replies);
    this.logger.debug('entities-extracted', {
      event: 'entities-extracted',
      extractor: this.name,
      sourcePath: input.sourcePath,
      entities: facts.entities.length,
      relations: facts.relations.length,
    });
    return facts;
  }

  private async ask(input: ExtractionInput, window: string, signal?: AbortSignal): Promise<ExtractionReply> {
    const messages: ChatMessage[] = entityExtractionPrompt(input, window);
    const attempts = 1 + (this.options.jsonRetries ?? 1);
    let problem = '';
    for (let attempt = 0; attempt < attempts; attempt++) {
      const response = await this.options.llm.complete(
        { messages, temperature: 0, responseFormat: 'json', maxTokens: 4000 },
        signal ? { signal } : {},
      );
      const parsed = parseExtractionReply(response.text);
      if (typeof parsed !== 'string') return parsed;
      problem = parsed;
      this.logger.warn('entity-reply-invalid', {
        event: 'entity-reply-invalid',
        extractor: this.name,
        sourcePath: input.sourcePath,
        attempt: attempt + 1,
        problem,
      });
      messages.push({ role: 'assistant', content: response.text.slice(0, 4000) }, correctionPrompt(problem));
    }
    throw new RagError(
      ErrorCode.LLM_OUTPUT_INVALID,
      `the model's entities for ${input.sourcePath} were not valid JSON of the expected shape after ${attempts} attempts: ${problem}`,
      { details: { sourcePath: input.sourcePath, attempts } },
    );
  }
}

/** Cuts the text at paragraph breaks into pieces of at most WINDOW_CHARS (a longer paragraph is cut hard). */
function windows(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + WINDOW_CHARS);
    if (end < text.length) {
      const paragraph = text.lastIndexOf('\n\n', end);
      if (paragraph > start) end = paragraph;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place the text writes the name, case-insensitively, not inside a longer word. */
function findMentions(text: string, name: string): Span[] {
  const words = name.trim().split(/\s+/).map(escape).join('\\s+');
  if (words.length === 0) return [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, 'giu');
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/**
 * The model's replies as facts grounded in the text: entities typed by the offline extractors
 * where they know the name, mentions found in the text, relations between kept entities only.
 */
export function groundReplies(input: ExtractionInput, replies: readonly ExtractionReply[]): DocumentFacts {
  const { text } = input;
  const authoritative = mergeFacts([
    offlineFactsOf(text, input.title === null ? {} : { title: input.title }),
    extractNumberedEntities(text),
  ]);
  // Compared as plain text, across types: "Location" the Concept is the Resource `location`.
  const plain = (name: string) => normalizeEntityName('Concept', name);
  const known = new Map<string, EntityFact>();
  for (const entity of authoritative.entities) {
    for (const spelling of [entity.name, ...(entity.aliases ?? [])]) {
      const key = entity.type === 'Endpoint' ? entityKey('Endpoint', spelling) : plain(spelling);
      if (!known.has(key)) known.set(key, entity);
    }
  }

  const entities = new Map<string, EntityFact>();
  const refByName = new Map<string, EntityRef>();
  for (const proposed of replies.flatMap((reply) => reply.entities)) {
    if (parseEntityReference(proposed.name) !== null) continue;
    if (proposed.type === 'Endpoint' && !ENDPOINT_NAME.test(proposed.name)) continue;
    const lookup = proposed.type === 'Endpoint' ? entityKey('Endpoint', proposed.name) : plain(proposed.name);
    const authority = known.get(lookup);
    // A name the offline extractors know is where they found it (`POST /v2/rates/quote` is
    // `POST /rates/quote`); any other must be written in the text.
    const mentions = [proposed.name, ...proposed.aliases].flatMap((spelling) => findMentions(text, spelling));
    if (authority) mentions.push(...authority.mentions);
    if (mentions.length === 0) continue;
    const ref: EntityRef = authority
      ? { type: authority.type, name: authority.name }
      : { type: proposed.type, name: proposed.name };
    const key = entityKey(ref.type, ref.name);
    const existing = entities.get(key);
    const aliases = proposed.aliases.filter((alias) => plain(alias) !== plain(ref.name));
    if (existing) {
      existing.mentions.push(...mentions);
      existing.aliases = [...new Set([...(existing.aliases ?? []), ...aliases])];
    } else {
      entities.set(key, { ...ref, mentions, ...(aliases.length > 0 ? { aliases } : {}) });
    }
    refByName.set(plain(proposed.name), ref);
  }

  const relations: RelationFact[] = [];
  for (const relation of replies.flatMap((reply) => reply.relations)) {
    const from = refByName.get(plain(relation.from));
    const to = refByName.get(plain(relation.to));
    if (!from || !to) continue;
    relations.push({ from, to, type: relation.type, weight: 1 });
  }
  return mergeFacts([{ entities: [...entities.values()], relations }]);
}
