import type { DocumentFacts, EntityFact, EntityRef, RelationFact } from '../facts.js';
import { entityKey } from '../resolve.js';
import { offlineFactsOf, type EntityExtractor, type ExtractionInput } from './offline.js';

/** Doc pages: guides and references written for people, not the API spec itself. */
const DOC_PAGE_KINDS: ReadonlySet<string> = new Set(['markdown', 'html', 'pdf', 'docx']);

/** A heading that names an endpoint is about it: it counts this many mentions. */
const HEADING_WEIGHT = 3;

/**
 * `DocPage{url, title}` nodes and their `DOC_DESCRIBES` edges, read from one document (docs/graph.md).
 *
 * Every Markdown or HTML document is a DocPage (its key is the document id, which kb_get_doc
 * takes; `url` is the same id, `title` the document's). The page describes each API endpoint it
 * names — `POST /v2/locations` in prose, a code span, a heading, link text or a `curl` command,
 * found by the offline extractor's endpoint rules, so the endpoint is the same node the spec
 * defines. The edge runs as the design's Cypher reads it, `(Endpoint)-[:DOC_DESCRIBES]->(DocPage)`,
 * weighted by the page's mentions of the endpoint, a mention in a heading counting
 * HEADING_WEIGHT. Resources whose endpoints one page describes together are `RELATED_TO` each
 * other (the page is a workflow across them: rate shopping quotes rates, then books a
 * shipment); the store sums the weight over pages.
 */
export class DocPageExtractor implements EntityExtractor {
  readonly name = 'doc-pages-v1';

  extract(input: ExtractionInput): Promise<DocumentFacts> {
    if (!DOC_PAGE_KINDS.has(input.kind)) return Promise.resolve({ entities: [], relations: [] });
    return Promise.resolve(docPageFacts(input));
  }
}

export function docPageFacts(input: ExtractionInput): DocumentFacts {
  const { text } = input;
  const first = Math.max(0, text.search(/\S/));
  const page: EntityRef = { type: 'DocPage', name: input.sourcePath };
  const pageFact: EntityFact = {
    ...page,
    // The page is cited by its opening: the chunk that holds its title.
    mentions: [{ start: first, end: Math.min(text.length, first + 1) }],
    definition: { start: 0, end: text.length },
    properties: { url: input.sourcePath, title: input.title },
  };
  const offline = offlineFactsOf(text, input.title === null ? {} : { title: input.title });
  const headings = headingLines(text);
  const inHeading = (start: number) => headings.some((line) => line.start <= start && start < line.end);

  const entities: EntityFact[] = [pageFact];
  const relations: RelationFact[] = [];
  const endpoints = new Map<string, EntityFact>();
  for (const entity of offline.entities) {
    if (entity.type !== 'Endpoint') continue;
    const weight = entity.mentions.reduce(
      (sum, mention) => sum + (inHeading(mention.start) ? HEADING_WEIGHT : 1),
      0,
    );
    endpoints.set(entityKey('Endpoint', entity.name), entity);
    entities.push(entity);
    relations.push({
      from: { type: 'Endpoint', name: entity.name },
      to: page,
      type: 'DOC_DESCRIBES',
      weight,
    });
  }
  const described = new Map<string, EntityFact>();
  for (const relation of offline.relations) {
    if (relation.type !== 'RESOURCE_HAS_ENDPOINT') continue;
    if (!endpoints.has(entityKey(relation.to.type, relation.to.name))) continue;
    const resource = offline.entities.find(
      (entity) =>
        entity.type === 'Resource' &&
        entityKey(entity.type, entity.name) === entityKey('Resource', relation.from.name),
    );
    if (resource) described.set(entityKey('Resource', resource.name), resource);
  }
  const resources = [...described.entries()].sort(([left], [right]) => (left < right ? -1 : 1));
  for (let i = 0; i < resources.length; i++) {
    entities.push(resources[i]![1]);
    for (let j = i + 1; j < resources.length; j++) {
      relations.push({
        from: { type: 'Resource', name: resources[i]![1].name },
        to: { type: 'Resource', name: resources[j]![1].name },
        type: 'RELATED_TO',
        weight: 1,
      });
    }
  }
  return { entities, relations };
}

/** Markdown heading lines (HTML reaches extraction with its headings written as `#`). */
function headingLines(text: string): Array<{ start: number; end: number }> {
  return [...text.matchAll(/^ {0,3}#{1,6}[ \t][^\n]*/gm)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}
