import { type Json, isObject, asObject, safeDecode } from './json.js';

/** The parsed spec and its `$ref`s: resolution, cycles, and the component schemas a node points at. */

export interface Spec {
  root: Json;
  file: string;
  schemas: Json;
  /** Refs no single document owns (a path item's, a security scheme's): the overview reports them. */
  fileRefs: RefSink;
}

/** What one document points at: component schemas (with where from) and refs that lead nowhere. */
export class RefSink {
  readonly schemas = new Map<string, Set<string>>();
  readonly unresolved = new Set<string>();

  add(name: string, via: string | undefined): void {
    const vias = this.schemas.get(name) ?? new Set<string>();
    if (via) vias.add(via);
    this.schemas.set(name, vias);
  }
}

export function resolvePointer(root: Json, ref: string): unknown {
  // Only local refs: an external file or URL is outside this document, so it stays unresolved.
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(current) && /^\d+$/.test(token)) current = current[Number(token)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

export function componentSchemaName(spec: Spec, ref: string): string | undefined {
  const match = /^#\/components\/schemas\/([^/]+)/.exec(ref);
  if (!match) return undefined;
  const name = safeDecode(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  return Object.hasOwn(spec.schemas, name) ? name : undefined;
}

/**
 * Follows a chain of `$ref`s through non-schema components (parameter → parameter, response →
 * response) to the object at its end. The visited set makes a cycle terminate as an unresolved ref.
 */
export function deref(spec: Spec, node: unknown, sink: RefSink): Json | undefined {
  const visited = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    const target = visited.has(ref) ? undefined : resolvePointer(spec.root, ref);
    visited.add(ref);
    if (target === undefined) {
      sink.unresolved.add(ref);
      return undefined;
    }
    current = target;
  }
  return isObject(current) ? current : undefined;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
const SUBSCHEMAS = [
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;

/**
 * The component schemas a schema points at directly: the walk stops at each `$ref` to one (one
 * hop), and looks through a `$ref` to anything else. Examples, defaults and enums are data, not
 * schemas, so they are never walked. `seen` stops YAML-alias cycles.
 */
export function collectSchemaRefs(
  spec: Spec,
  node: unknown,
  via: string | undefined,
  sink: RefSink,
  seen = new Set<unknown>(),
): void {
  if (Array.isArray(node)) {
    for (const item of node) collectSchemaRefs(spec, item, via, sink, seen);
    return;
  }
  if (!isObject(node) || seen.has(node)) return;
  seen.add(node);
  const follow = (ref: string) => {
    const target = resolvePointer(spec.root, ref);
    const name = componentSchemaName(spec, ref);
    if (target === undefined) sink.unresolved.add(ref);
    else if (name !== undefined) sink.add(name, via);
    else collectSchemaRefs(spec, target, via, sink, seen);
  };
  if (typeof node.$ref === 'string') follow(node.$ref);
  const mapping = asObject(asObject(node.discriminator).mapping);
  for (const target of Object.values(mapping)) {
    if (typeof target === 'string')
      follow(target.startsWith('#') ? target : `#/components/schemas/${target}`);
  }
  for (const key of SCHEMA_MAPS) {
    for (const value of Object.values(asObject(node[key]))) collectSchemaRefs(spec, value, via, sink, seen);
  }
  for (const key of SUBSCHEMAS) collectSchemaRefs(spec, node[key], via, sink, seen);
}

export function mediaSchemas(content: unknown): Array<{ mediaType: string; schema: unknown }> {
  return Object.entries(asObject(content)).map(([mediaType, media]) => ({
    mediaType,
    schema: asObject(media).schema,
  }));
}
