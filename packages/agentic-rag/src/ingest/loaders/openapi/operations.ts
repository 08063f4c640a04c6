import { VERSION_SEGMENT, isPluralName, resourceName } from '../../../graph/index.js';
import { type Json, text, isObject, asObject, asArray } from './json.js';
import { type Spec, RefSink, deref, mediaSchemas } from './refs.js';

/** The operations of a spec and their CRUD shape (operation type, resource, sub-resource, action). */

export type OperationType = 'create' | 'read' | 'update' | 'delete' | 'list' | 'action';

const HTTP_METHODS: ReadonlySet<string> = new Set([
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
]);
const BULK_SEGMENTS: ReadonlySet<string> = new Set(['bulk', 'batch']);

export interface Operation {
  method: string;
  path: string;
  node: Json;
  pathItem: Json;
  /** `POST /locations`: the Endpoint entity's name. */
  name: string;
  id: string;
  operationId: string | undefined;
  summary: string | undefined;
  operationType: OperationType;
  resource: string;
  subResource: string | undefined;
  action: string | undefined;
  /** The path's static segments after the spec's base path and version: what it names. */
  segments: string[];
}

export function listOperations(spec: Spec): Operation[] {
  const operations: Operation[] = [];
  const paths = Object.keys(asObject(spec.root.paths)).filter((path) => path.startsWith('/'));
  const base = basePath(paths);
  for (const [path, rawItem] of Object.entries(asObject(spec.root.paths))) {
    if (!path.startsWith('/')) continue; // `x-` extensions
    const pathItem = deref(spec, rawItem, spec.fileRefs) ?? {};
    for (const [key, node] of Object.entries(pathItem)) {
      const method = key.toLowerCase();
      if (!HTTP_METHODS.has(method) || !isObject(node)) continue;
      const shape = classify(spec, path, method, pathItem, base);
      const operationId = text(node.operationId);
      operations.push({
        method,
        path,
        node,
        pathItem,
        name: `${method.toUpperCase()} ${path}`,
        id: `${spec.file}#paths${path}/${method}`,
        operationId,
        summary: text(node.summary) ?? text(pathItem.summary),
        ...shape,
      });
    }
  }
  return operations;
}

/**
 * CRUD shape from method and path: PUT/PATCH update, DELETE deletes; POST on a collection creates
 * (a top-level one, `/bulk`, a path whose GET lists, a plural segment: `/user/keys`), on a verb sub-path
 * (`/cancel`, `/rates/quote`) it is an action; GET on a `{param}` reads, GET on a static segment
 * lists when its success response is a collection (an array, a `*List`, a `data` array) and reads
 * otherwise (`/label`, a rate card), falling back to "plural segment" when there is no schema.
 */
/**
 * The static segments every path of the spec starts with (`/rest/api/3` in Jira's): the API's base
 * path, written into each path by specs that have no `servers` base. They name no resource.
 */
export function basePath(paths: readonly string[]): number {
  if (paths.length < 2) return 0;
  const split = paths.map((path) => path.split('/').filter(Boolean));
  let shared = 0;
  for (;;) {
    const segment = split[0]![shared];
    if (segment === undefined || /^\{.*\}$/.test(segment)) break;
    // The last segment of a path is its resource, never only base.
    if (!split.every((parts) => parts[shared] === segment && parts.length > shared + 1)) break;
    shared++;
  }
  return shared;
}

function classify(
  spec: Spec,
  path: string,
  method: string,
  pathItem: Json,
  base: number,
): Pick<Operation, 'operationType' | 'resource' | 'subResource' | 'action' | 'segments'> {
  const segments = path
    .split('/')
    .filter(Boolean)
    .slice(base)
    .filter((segment) => !VERSION_SEGMENT.test(segment));
  const isParam = (segment: string | undefined) => segment !== undefined && /^\{.*\}$/.test(segment);
  const statics = segments.filter((segment) => !isParam(segment));
  const last = segments.at(-1);
  const previous = segments.at(-2);
  const listsHere = isObject(pathItem.get) && returnsCollection(spec, pathItem.get);

  let operationType: OperationType;
  if (method === 'delete') operationType = 'delete';
  else if (method === 'put' || method === 'patch') operationType = 'update';
  else if (method === 'get' || method === 'head') {
    const collection = method === 'get' ? returnsCollection(spec, pathItem.get) : undefined;
    operationType =
      last === undefined || isParam(last) ? 'read' : (collection ?? isPluralName(last)) ? 'list' : 'read';
  } else if (method === 'post' && last !== undefined && !isParam(last)) {
    const creates =
      previous === undefined ||
      BULK_SEGMENTS.has(last.toLowerCase()) ||
      listsHere === true ||
      isPluralName(last);
    operationType = creates ? 'create' : 'action';
  } else if (method === 'post' && isParam(last) && (isObject(pathItem.get) || isObject(pathItem.delete))) {
    // POST to an item that can also be read or deleted is that item's update (Stripe's style:
    // `POST /v1/customers/{customer}` changes the customer).
    operationType = 'update';
  } else operationType = 'action';

  const first = statics[0];
  const lastStatic = statics.at(-1);
  const resource = first ? resourceName(first) : 'root';
  const action = operationType === 'action' && lastStatic && statics.length > 1 ? lastStatic : undefined;
  const subResource =
    operationType !== 'action' &&
    lastStatic &&
    statics.length > 1 &&
    !BULK_SEGMENTS.has(lastStatic.toLowerCase())
      ? resourceName(lastStatic)
      : undefined;
  return { operationType, resource, subResource, action, segments: statics };
}

/** Whether the first 2xx response is a collection; undefined when it has no schema to tell. */
function returnsCollection(spec: Spec, operation: unknown): boolean | undefined {
  const sink = new RefSink();
  const responses = asObject(asObject(operation).responses);
  const success = Object.keys(responses).find((status) => /^2/.test(status));
  if (!success) return undefined;
  const body = mediaSchemas(deref(spec, responses[success], sink)?.content)[0]?.schema;
  if (body === undefined) return undefined;
  const ref = isObject(body) && typeof body.$ref === 'string' ? body.$ref : undefined;
  if (ref && /List$/.test(ref)) return true;
  const schema = deref(spec, body, sink);
  if (!schema) return undefined;
  if (schema.type === 'array') return true;
  const properties = asObject(schema.properties);
  return ['data', 'items', 'results', 'records'].some(
    (key) => deref(spec, properties[key], sink)?.type === 'array',
  );
}

export function endpointTitle(operation: Operation): string {
  return operation.summary ? `${operation.name} — ${operation.summary}` : operation.name;
}

/** Path-level parameters, overridden by the operation's own with the same name and location. */
export function operationParameters(spec: Spec, operation: Operation, sink: RefSink): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...asArray(operation.pathItem.parameters), ...asArray(operation.node.parameters)]) {
    const parameter = deref(spec, raw, sink);
    if (parameter) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...byKey.values()];
}
