import type { Span } from '../../../graph/index.js';
import { FactsBuilder, fieldProperties, addSchemaReferences } from './facts.js';
import { isObject, asObject } from './json.js';
import { nameSpan, schemaMentions } from './mentions.js';
import { type Spec, RefSink, collectSchemaRefs } from './refs.js';
import {
  type PropertyEntry,
  propertiesOf,
  propertyLines,
  schemaAttributes,
  appendUnmentioned,
} from './schema-text.js';
import { type Draft, TextBuilder } from './text-builder.js';

/** One component schema as a document, with its fields as entities. */

export function renderSchema(spec: Spec, name: string, raw: unknown): Draft {
  const sink = new RefSink();
  const schema = isObject(raw) ? raw : {};
  const builder = new TextBuilder();
  const title = `${name} schema`;
  const heading = builder.heading(1, title);
  const fields = propertiesOf(spec, schema, name, true, sink);
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const summary = [`Component schema \`${name}\`: ${schemaAttributes(spec, schema, false).join(', ')}.`];
  if (required.length > 0)
    summary.push(`Required properties: ${required.map((field) => `\`${field}\``).join(', ')}.`);
  builder.paragraph(summary.join(' '));
  if (typeof schema.title === 'string' && schema.title !== name) builder.paragraph(schema.title);
  builder.markdown(schema.description, 1);

  // Each top-level property is walked on its own so a reference knows which field it comes from.
  const own = asObject(schema.properties);
  for (const [field, value] of Object.entries(own)) collectSchemaRefs(spec, value, field, sink);
  collectSchemaRefs(spec, { ...schema, properties: undefined }, undefined, sink);

  const lines = propertyLines(spec, fields, name);
  const fieldSpans: Array<{ field: PropertyEntry; span: Span }> = [];
  if (lines.length > 0) {
    builder.heading(2, 'Properties');
    const spans = builder.list(lines.map((line) => line.text));
    lines.forEach((line, index) => {
      if (line.field)
        fieldSpans.push({ field: line.field, span: nameSpan(builder.text, spans[index]!, line.field.name) });
    });
  }
  appendUnmentioned(builder, sink);

  const facts = new FactsBuilder(builder.text);
  const self = { type: 'Schema', name };
  facts.entity(self, {
    mentions: [nameSpan(builder.text, heading, name), ...schemaMentions(builder.text, name)],
    definition: { start: 0, end: builder.text.length },
  });
  for (const { field, span } of fieldSpans) {
    const ref = { type: 'Field', name: `${field.owner}.${field.name}` };
    facts.entity(ref, { mentions: [span], properties: fieldProperties(spec, field) });
    facts.relation(self, ref, 'USES_FIELD');
  }
  addSchemaReferences(facts, self, sink);

  return {
    id: schemaId(spec, name),
    title,
    text: builder.text,
    blocks: builder.blocks,
    metadata: {
      chunk_type: 'schema',
      schema_name: name,
      fields: fields.map((field) => field.name),
      required_fields: required,
      // A schema that points at itself (Location.parent_location) cannot list itself in ref_ids.
      ...(sink.schemas.has(name) ? { recursive: true } : {}),
    },
    refIds: new Set(
      [...sink.schemas.keys()].filter((target) => target !== name).map((target) => schemaId(spec, target)),
    ),
    unresolved: sink.unresolved,
    facts: facts.build(),
  };
}

export function schemaId(spec: Spec, name: string): string {
  return `${spec.file}#components/schemas/${name}`;
}
