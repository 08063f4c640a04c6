import type {
  DocumentFacts,
  EntityFact,
  EntityRef,
  RelationFact,
  RelationType,
} from '../../../graph/index.js';
import { dedupeSpans } from './json.js';
import { schemaMentions } from './mentions.js';
import type { Operation } from './operations.js';
import type { RefSink, Spec } from './refs.js';
import { type PropertyEntry, label } from './schema-text.js';

/** Entities and relations of the rendered documents, merged per name, each with a place in the text. */

/** Collects entities and relations, merging repeats (the same schema named twice). */
export class FactsBuilder {
  private readonly entities = new Map<string, EntityFact>();
  private readonly relations = new Map<string, RelationFact>();

  constructor(readonly text: string) {}

  entity(ref: EntityRef, options: Omit<EntityFact, 'type' | 'name'>): void {
    const key = `${ref.type}\u0000${ref.name}`;
    const existing = this.entities.get(key);
    const mentions = dedupeSpans([...(existing?.mentions ?? []), ...options.mentions]);
    this.entities.set(key, { ...existing, ...ref, ...options, mentions });
  }

  relation(from: EntityRef, to: EntityRef, type: RelationType, properties?: Record<string, unknown>): void {
    const key = [from.type, from.name, type, to.type, to.name, JSON.stringify(properties ?? {})].join(
      '\u0000',
    );
    this.relations.set(key, {
      from: { type: from.type, name: from.name },
      to: { type: to.type, name: to.name },
      type,
      ...(properties ? { properties } : {}),
    });
  }

  build(): DocumentFacts {
    for (const entity of this.entities.values()) {
      // Never leave an entity without a place in the text: fall back to the document's first line.
      const firstLineEnd = this.text.indexOf('\n');
      if (entity.mentions.length === 0) {
        entity.mentions = [{ start: 0, end: firstLineEnd === -1 ? this.text.length : firstLineEnd }];
      }
    }
    return { entities: [...this.entities.values()], relations: [...this.relations.values()] };
  }
}

export function endpointRef(operation: Operation): EntityRef {
  return { type: 'Endpoint', name: operation.name };
}

export function endpointProperties(operation: Operation): Record<string, unknown> {
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    operation_id: operation.operationId ?? null,
    ...(operation.summary ? { summary: operation.summary } : {}),
  };
}

export function fieldProperties(spec: Spec, field: PropertyEntry): Record<string, unknown> {
  return {
    schema: field.owner,
    field: field.name,
    type: label(spec, field.schema, false).replace(/`/g, ''),
    required: field.required,
  };
}

export function addSchemaReferences(facts: FactsBuilder, from: EntityRef, sink: RefSink): void {
  for (const [name, vias] of sink.schemas) {
    const ref = { type: 'Schema', name };
    facts.entity(ref, { mentions: schemaMentions(facts.text, name) });
    facts.relation(from, ref, 'REFERENCES', vias.size > 0 ? { via: [...vias].sort() } : undefined);
  }
}
