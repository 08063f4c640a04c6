import type { DocumentFacts } from '../facts.js';
import { extractNumberedEntities } from './numbered.js';
import type { EntityExtractor, ExtractionInput } from './offline.js';

/** Prose formats where numbered entities (Algorithm 3.2, Equation 7.5) are written. */
const PROSE_KINDS: ReadonlySet<string> = new Set(['markdown', 'text', 'html', 'pdf', 'docx']);

/** Textbook entities by number: formulas, algorithms, tables, figures, sections, ... */
export class NumberedEntityExtractor implements EntityExtractor {
  readonly name = 'numbered-v1';

  extract(input: ExtractionInput): Promise<DocumentFacts> {
    if (!PROSE_KINDS.has(input.kind)) return Promise.resolve({ entities: [], relations: [] });
    return Promise.resolve(extractNumberedEntities(input.text));
  }
}
