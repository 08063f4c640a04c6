import { type Json, sentence, withExample, format, text, isObject, asObject, asArray } from './json.js';
import { schemaMentions } from './mentions.js';
import { type Spec, RefSink, resolvePointer, componentSchemaName, deref } from './refs.js';
import type { TextBuilder } from './text-builder.js';

/** Schemas as text: property lines, type labels with their constraints, request bodies. */

export interface PropertyEntry {
  name: string;
  schema: unknown;
  required: boolean;
  /** The component schema (or, for an inline request body, the operation) that declares it. */
  owner: string;
}

/** Properties of an object schema, including those it gets through `allOf` (followed with a visited set). */
export function propertiesOf(
  spec: Spec,
  schema: Json,
  owner: string,
  followAllOf: boolean,
  sink: RefSink,
  visited = new Set<unknown>(),
): PropertyEntry[] {
  if (visited.has(schema)) return [];
  visited.add(schema);
  const entries: PropertyEntry[] = [];
  if (followAllOf) {
    for (const member of asArray(schema.allOf)) {
      const ref = isObject(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
      const memberOwner = (ref && componentSchemaName(spec, ref)) || owner;
      const resolved = deref(spec, member, sink);
      if (resolved) entries.push(...propertiesOf(spec, resolved, memberOwner, true, sink, visited));
    }
  }
  const required = new Set(asArray(schema.required).map(String));
  for (const [name, value] of Object.entries(asObject(schema.properties))) {
    const existing = entries.findIndex((entry) => entry.name === name);
    const entry = { name, schema: value, required: required.has(name), owner };
    if (existing === -1) entries.push(entry);
    else entries[existing] = entry;
  }
  // `required` may name inherited properties.
  for (const entry of entries) if (required.has(entry.name)) entry.required = true;
  return entries;
}

/** The object a request body sends: through a component $ref, or the items of an array body. */
export function objectSchemaOf(
  spec: Spec,
  schema: unknown,
  sink: RefSink,
  depth = 0,
): { owner: string | undefined; schema: Json } | undefined {
  if (!isObject(schema) || depth > 4) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = deref(spec, schema, sink);
    const inner = target ? objectSchemaOf(spec, target, sink, depth + 1) : undefined;
    const name = componentSchemaName(spec, schema.$ref);
    return inner && name ? { owner: inner.owner ?? name, schema: inner.schema } : inner;
  }
  if (schema.type === 'array') return objectSchemaOf(spec, schema.items, sink, depth + 1);
  if (isObject(schema.properties) || Array.isArray(schema.allOf)) return { owner: undefined, schema };
  return undefined;
}

interface PropertyLine {
  text: string;
  /** Set on top-level properties, which become Field entities. */
  field?: PropertyEntry;
}

/** One list line per property; inline nested objects follow as `parent.child` / `parent[].child`. */
export function propertyLines(spec: Spec, fields: PropertyEntry[], owner: string): PropertyLine[] {
  const lines: PropertyLine[] = [];
  const visit = (
    entries: PropertyEntry[],
    prefix: string,
    depth: number,
    seen: Set<unknown>,
    top: boolean,
  ) => {
    for (const entry of entries) {
      const schema = asObject(entry.schema);
      const attributes = schemaAttributes(spec, entry.schema, false, entry.required);
      const inherited = top && entry.owner !== owner ? ` (from \`${entry.owner}\`)` : '';
      const path = `${prefix}${entry.name}`;
      const line = withExample(
        sentence(`\`${path}\` (${attributes.join(', ')})${inherited}`, schema.description),
        schema,
      );
      lines.push(top ? { text: line, field: entry } : { text: line });
      if (depth >= 3 || seen.has(entry.schema)) continue;
      const nested = schema.type === 'array' ? asObject(schema.items) : schema;
      if (typeof nested.$ref === 'string' || !isObject(nested.properties)) continue;
      const childPrefix = `${path}${nested === schema ? '' : '[]'}.`;
      const children = propertiesOf(spec, nested, entry.owner, false, new RefSink());
      visit(children, childPrefix, depth + 1, new Set([...seen, entry.schema]), false);
    }
  };
  visit(fields, '', 0, new Set(), true);
  return lines;
}

/**
 * `string (date-time)`, `array of \`Parcel\``, `\`Location\`` (an `allOf` of one), and with `expand`
 * inline objects spelled out: `object {data: array of \`RateQuote\`}`. Without it an inline object
 * is just `object`, for callers that list its properties on their own lines.
 */
export function label(spec: Spec, schema: unknown, expand: boolean, depth = 0): string {
  if (!isObject(schema) || depth > 4) return isObject(schema) ? 'object' : 'any';
  const inner = (value: unknown) => label(spec, value, expand, depth + 1);
  if (typeof schema.$ref === 'string') {
    const name = componentSchemaName(spec, schema.$ref);
    if (name) return `\`${name}\``;
    const target = resolvePointer(spec.root, schema.$ref);
    return target === undefined ? `\`${schema.$ref}\` (unresolved)` : inner(target);
  }
  for (const [key, word] of [
    ['allOf', 'all of'],
    ['oneOf', 'one of'],
    ['anyOf', 'any of'],
  ] as const) {
    const members = asArray(schema[key]);
    if (members.length === 0) continue;
    const labels = members.map(inner);
    return members.length === 1 && key === 'allOf' ? labels[0]! : `${word} ${labels.join(', ')}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.map(String).join(' or ') : text(schema.type);
  if (type === 'array') return `array of ${inner(schema.items)}`;
  if (type === 'object' || (type === undefined && isObject(schema.properties))) {
    const properties = Object.entries(asObject(schema.properties));
    if (properties.length > 0 && expand) {
      return `object {${properties.map(([name, value]) => `${name}: ${inner(value)}`).join(', ')}}`;
    }
    if (properties.length === 0 && isObject(schema.additionalProperties)) {
      return `map of ${inner(schema.additionalProperties)}`;
    }
    return 'object';
  }
  if (type) return schema.format ? `${type} (${String(schema.format)})` : type;
  return Array.isArray(schema.enum) ? 'enum' : 'any';
}

/** The label plus the constraints a reader needs: nullable, enum values, default, bounds, pattern. */
export function schemaAttributes(spec: Spec, schema: unknown, expand: boolean, required = false): string[] {
  if (!isObject(schema)) return [label(spec, schema, expand)];
  // A property that only wraps its type (`allOf: [$ref]`, `items`) still shows its own constraints.
  const attributes = [label(spec, schema, expand), ...(required ? ['required'] : [])];
  if (schema.nullable === true) attributes.push('nullable');
  if (schema.readOnly === true) attributes.push('read-only');
  if (schema.writeOnly === true) attributes.push('write-only');
  if (schema.deprecated === true) attributes.push('deprecated');
  if (Array.isArray(schema.enum)) attributes.push(`one of: ${schema.enum.map(format).join(', ')}`);
  const items = asObject(schema.items);
  if (schema.type === 'array' && Array.isArray(items.enum)) {
    attributes.push(`items one of: ${items.enum.map(format).join(', ')}`);
  }
  if (schema.default !== undefined) attributes.push(`default ${format(schema.default)}`);
  const exclusiveMin = schema.exclusiveMinimum;
  const exclusiveMax = schema.exclusiveMaximum;
  if (typeof exclusiveMin === 'number') attributes.push(`greater than ${exclusiveMin}`);
  if (typeof schema.minimum === 'number') {
    attributes.push(exclusiveMin === true ? `greater than ${schema.minimum}` : `minimum ${schema.minimum}`);
  }
  if (typeof exclusiveMax === 'number') attributes.push(`less than ${exclusiveMax}`);
  if (typeof schema.maximum === 'number') {
    attributes.push(exclusiveMax === true ? `less than ${schema.maximum}` : `maximum ${schema.maximum}`);
  }
  for (const [key, words] of [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['minProperties', 'min properties'],
    ['maxProperties', 'max properties'],
  ] as const) {
    if (typeof schema[key] === 'number') attributes.push(`${words} ${String(schema[key])}`);
  }
  if (typeof schema.pattern === 'string') attributes.push(`pattern ${schema.pattern}`);
  return attributes;
}

export function bodySentence(spec: Spec, media: Array<{ mediaType: string; schema: unknown }>): string {
  const withSchema = media.filter((entry) => entry.schema !== undefined);
  if (withSchema.length === 0) return '';
  if (withSchema.length === 1 && withSchema[0]!.mediaType === 'application/json') {
    return `Body: ${label(spec, withSchema[0]!.schema, true)}.`;
  }
  return `Body: ${withSchema.map((entry) => `${label(spec, entry.schema, true)} (${entry.mediaType})`).join(', ')}.`;
}

/** Every referenced schema is named somewhere in the text, so its entity has a mention to point at. */
export function appendUnmentioned(builder: TextBuilder, sink: RefSink): void {
  const missing = [...sink.schemas.keys()].filter((name) => schemaMentions(builder.text, name).length === 0);
  if (missing.length > 0)
    builder.paragraph(`Also references: ${missing.map((name) => `\`${name}\``).join(', ')}.`);
}
