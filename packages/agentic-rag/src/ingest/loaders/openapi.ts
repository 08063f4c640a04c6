import { parseDocument } from 'yaml';
import { ErrorCode } from '../../errors/index.js';
import type {
  DocumentFacts,
  EntityFact,
  EntityRef,
  RelationFact,
  RelationType,
  Span,
} from '../../graph/index.js';
import type { Block, LoadedDocument } from '../document.js';
import type { Loader, LoaderInput, LoadResult } from './loader.js';
import { parseMarkdownBlocks } from './markdown-blocks.js';
import { titleFromPath } from './normalize.js';

/**
 * OpenAPI 3 specifications as documents a question can land on: one per operation, one per
 * operation's error responses, one per component schema and one overview (`#info`). Each has its
 * own rendered Markdown-like text, because that text is what gets embedded, BM25-indexed and
 * quoted: "POST /locations — Create a location" answers a question, a YAML fragment does not.
 *
 * Ids: `<file>#info`, `<file>#paths<path>/<method>`, `<file>#paths<path>/<method>/errors`,
 * `<file>#components/schemas/<Name>`. `ref_ids` lists the documents one points at directly (one
 * hop: query-time expansion walks further) and `referenced_by` is its inverse over the file.
 * A `$ref` that resolves to nothing is not a failure of the file: the document is kept and the
 * ref is listed in its `unresolved_refs`.
 *
 * Resources: an operation's `resource` is its first path segment singularised (`/shipments/{id}/
 * events` → `shipment`); a deeper collection is its `sub_resource` (`event`), and an action's verb
 * segment is its `action` (`/shipments/{id}/cancel` → `cancel`). Version segments (`/v2`, `/api`)
 * are skipped.
 */

type Json = Record<string, unknown>;

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
const VERSION_SEGMENT = /^(?:api|v\d+(?:\.\d+)*)$/i;
const BULK_SEGMENTS: ReadonlySet<string> = new Set(['bulk', 'batch']);
const ERROR_STATUS = /^(?:[45](?:\d\d|XX)|default)$/i;
/** `422 INVALID_ADDRESS` in an operation's description: a code the operation documents for a status. */
const STATUS_CODE_PAIR = /\b([45]\d\d)\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
/** `` `CARRIER_SUSPENDED` `` in a response's description. */
const QUOTED_CODE = /`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`/g;
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

const REASONS: Readonly<Record<string, string>> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '206': 'Partial Content',
  '207': 'Multi-Status',
  '301': 'Moved Permanently',
  '302': 'Found',
  '304': 'Not Modified',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '402': 'Payment Required',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '406': 'Not Acceptable',
  '409': 'Conflict',
  '410': 'Gone',
  '412': 'Precondition Failed',
  '413': 'Payload Too Large',
  '415': 'Unsupported Media Type',
  '422': 'Unprocessable Entity',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '501': 'Not Implemented',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
  default: 'Any other status',
};

/** An object with a string `openapi` field starting with "3.": what the YAML and JSON loaders hand here. */
export function isOpenApi3(value: unknown): value is Json {
  return isObject(value) && typeof value.openapi === 'string' && value.openapi.startsWith('3.');
}

/** A .yaml/.yml/.json file known to be a spec; JSON parses as YAML too. Anything else is PARSE_FAILED. */
export const loadOpenApi: Loader = (input) => {
  const parsed = parseDocument(input.text);
  const value: unknown = parsed.errors.length === 0 ? parsed.toJS() : undefined;
  if (!isOpenApi3(value)) {
    const reason = parsed.errors[0]?.message ?? 'no "openapi: 3.x" field';
    return {
      documents: [],
      failures: [
        {
          sourcePath: input.sourcePath,
          code: ErrorCode.PARSE_FAILED,
          message: `invalid OpenAPI 3 document: ${reason}`,
        },
      ],
    };
  }
  return loadOpenApiSpec(input, value);
};

/** The documents of an already parsed OpenAPI 3 document (YAML and JSON give the same value, so the same output). */
export function loadOpenApiSpec(input: LoaderInput, root: Json): LoadResult {
  const spec: Spec = {
    root,
    file: input.sourcePath,
    schemas: asObject(asObject(root.components).schemas),
    fileRefs: new RefSink(),
  };
  const operations = listOperations(spec);
  const drafts: Draft[] = [renderOverview(spec, operations)];
  for (const operation of operations) {
    const errors = renderErrors(spec, operation);
    drafts.push(renderOperation(spec, operation, errors?.id));
    if (errors) drafts.push(errors);
  }
  for (const [name, schema] of Object.entries(spec.schemas)) drafts.push(renderSchema(spec, name, schema));

  const overview = drafts[0]!;
  overview.unresolved = new Set([
    ...spec.fileRefs.unresolved,
    ...drafts.flatMap((draft) => [...draft.unresolved]),
  ]);
  const referencedBy = new Map<string, Set<string>>(drafts.map((draft) => [draft.id, new Set<string>()]));
  for (const draft of drafts) {
    for (const target of draft.refIds) if (target !== draft.id) referencedBy.get(target)?.add(draft.id);
  }
  const documents = drafts.map((draft): LoadedDocument => {
    const unresolved = [...draft.unresolved].sort();
    return {
      sourcePath: draft.id,
      sourceFile: input.sourcePath,
      kind: 'openapi',
      title: draft.title,
      url: null,
      text: draft.text,
      blocks: draft.blocks,
      metadata: {
        ...draft.metadata,
        ref_ids: sortedIds(draft.refIds, draft.id),
        referenced_by: sortedIds(referencedBy.get(draft.id) ?? [], draft.id),
        ...(unresolved.length > 0 ? { unresolved_refs: unresolved } : {}),
      },
      ...(draft.facts ? { facts: draft.facts } : {}),
    };
  });
  return { documents, failures: [] };
}

// --- the spec and its $refs ---------------------------------------------------------------------

interface Spec {
  root: Json;
  file: string;
  schemas: Json;
  /** Refs no single document owns (a path item's, a security scheme's): the overview reports them. */
  fileRefs: RefSink;
}

/** What one document points at: component schemas (with where from) and refs that lead nowhere. */
class RefSink {
  readonly schemas = new Map<string, Set<string>>();
  readonly unresolved = new Set<string>();

  add(name: string, via: string | undefined): void {
    const vias = this.schemas.get(name) ?? new Set<string>();
    if (via) vias.add(via);
    this.schemas.set(name, vias);
  }
}

function resolvePointer(root: Json, ref: string): unknown {
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

function componentSchemaName(spec: Spec, ref: string): string | undefined {
  const match = /^#\/components\/schemas\/([^/]+)/.exec(ref);
  if (!match) return undefined;
  const name = safeDecode(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  return Object.hasOwn(spec.schemas, name) ? name : undefined;
}

/**
 * Follows a chain of `$ref`s through non-schema components (parameter → parameter, response →
 * response) to the object at its end. The visited set makes a cycle terminate as an unresolved ref.
 */
function deref(spec: Spec, node: unknown, sink: RefSink): Json | undefined {
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
function collectSchemaRefs(
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

function mediaSchemas(content: unknown): Array<{ mediaType: string; schema: unknown }> {
  return Object.entries(asObject(content)).map(([mediaType, media]) => ({
    mediaType,
    schema: asObject(media).schema,
  }));
}

// --- operations -----------------------------------------------------------------------------

interface Operation {
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
}

function listOperations(spec: Spec): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(asObject(spec.root.paths))) {
    if (!path.startsWith('/')) continue; // `x-` extensions
    const pathItem = deref(spec, rawItem, spec.fileRefs) ?? {};
    for (const [key, node] of Object.entries(pathItem)) {
      const method = key.toLowerCase();
      if (!HTTP_METHODS.has(method) || !isObject(node)) continue;
      const shape = classify(spec, path, method, pathItem);
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
 * (a top-level one, `/bulk`, a path whose GET lists, a plural after a `{param}`), on a verb sub-path
 * (`/cancel`, `/rates/quote`) it is an action; GET on a `{param}` reads, GET on a static segment
 * lists when its success response is a collection (an array, a `*List`, a `data` array) and reads
 * otherwise (`/label`, a rate card), falling back to "plural segment" when there is no schema.
 */
function classify(
  spec: Spec,
  path: string,
  method: string,
  pathItem: Json,
): Pick<Operation, 'operationType' | 'resource' | 'subResource' | 'action'> {
  const segments = path.split('/').filter((segment) => segment && !VERSION_SEGMENT.test(segment));
  const isParam = (segment: string | undefined) => segment !== undefined && /^\{.*\}$/.test(segment);
  const statics = segments.filter((segment) => !isParam(segment));
  const last = segments.at(-1);
  const previous = segments.at(-2);
  const plural = (segment: string) => /[^s]s$/i.test(segment);
  const listsHere = isObject(pathItem.get) && returnsCollection(spec, pathItem.get);

  let operationType: OperationType;
  if (method === 'delete') operationType = 'delete';
  else if (method === 'put' || method === 'patch') operationType = 'update';
  else if (method === 'get' || method === 'head') {
    const collection = method === 'get' ? returnsCollection(spec, pathItem.get) : undefined;
    operationType =
      last === undefined || isParam(last) ? 'read' : (collection ?? plural(last)) ? 'list' : 'read';
  } else if (method === 'post' && last !== undefined && !isParam(last)) {
    const creates =
      previous === undefined ||
      BULK_SEGMENTS.has(last.toLowerCase()) ||
      listsHere === true ||
      (isParam(previous) && plural(last));
    operationType = creates ? 'create' : 'action';
  } else operationType = 'action';

  const first = statics[0];
  const lastStatic = statics.at(-1);
  const resource = first ? singular(first) : 'root';
  const action = operationType === 'action' && lastStatic && statics.length > 1 ? lastStatic : undefined;
  const subResource =
    operationType !== 'action' &&
    lastStatic &&
    statics.length > 1 &&
    !BULK_SEGMENTS.has(lastStatic.toLowerCase())
      ? singular(lastStatic)
      : undefined;
  return { operationType, resource, subResource, action };
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

/** `shipments` → `shipment`, `addresses` → `address`, `rate-cards` → `rate-card`, `rateCards` → `rate-card`. */
export function singular(segment: string): string {
  const word = segment.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:sses|shes|ches|xes|zzes|uses)$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word)) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

// --- rendering ----------------------------------------------------------------------------------

/** A document before `referenced_by` (which needs every document of the file) is known. */
interface Draft {
  id: string;
  title: string;
  text: string;
  blocks: Block[];
  metadata: Record<string, unknown>;
  refIds: Set<string>;
  unresolved: Set<string>;
  facts?: DocumentFacts;
}

/** Appends blocks separated by blank lines and records their offsets as it goes. */
class TextBuilder {
  text = '';
  readonly blocks: Block[] = [];

  heading(level: number, title: string): Span {
    const line = oneLine(title);
    return this.push('heading', `${'#'.repeat(level)} ${line}`, { level, title: line });
  }

  paragraph(content: string): Span {
    return this.push('paragraph', oneLine(content));
  }

  /** One list block; returns each item's span (from its `- `). */
  list(items: string[]): Span[] {
    if (items.length === 0) return [];
    const lines = items.map((item) => `- ${oneLine(item)}`);
    let offset = this.push('list', lines.join('\n')).start;
    return lines.map((line) => {
      const span = { start: offset, end: offset + line.length };
      offset = span.end + 1;
      return span;
    });
  }

  /** A fenced code block, kept whole by the chunker. */
  code(language: string, content: string): Span {
    return this.push('code', `\`\`\`${language}\n${content.trimEnd()}\n\`\`\``);
  }

  /** A description is Markdown: keep its own blocks, its headings nested under the section's. */
  markdown(content: unknown, levelOffset: number): void {
    const body = typeof content === 'string' ? content.trim() : '';
    if (!body) return;
    const start = this.separate();
    this.text += body;
    for (const block of parseMarkdownBlocks(body)) {
      this.blocks.push({
        ...block,
        start: block.start + start,
        end: block.end + start,
        ...(block.level ? { level: Math.min(6, block.level + levelOffset) } : {}),
      });
    }
  }

  private separate(): number {
    if (this.text) this.text += '\n\n';
    return this.text.length;
  }

  private push(type: Block['type'], content: string, extra: Partial<Block> = {}): Span {
    const start = this.separate();
    this.text += content;
    this.blocks.push({ type, start, end: this.text.length, ...extra });
    return { start, end: this.text.length };
  }
}

function renderOverview(spec: Spec, operations: Operation[]): Draft {
  const info = asObject(spec.root.info);
  const title = text(info.title) ?? titleFromPath(spec.file);
  const builder = new TextBuilder();
  builder.heading(1, title);
  const version = text(info.version);
  builder.paragraph(
    `${version ? `Version ${version}. ` : ''}OpenAPI ${String(spec.root.openapi)} specification with ` +
      `${operations.length} operations and ${Object.keys(spec.schemas).length} component schemas.`,
  );
  builder.markdown(info.description, 1);

  const servers = asArray(spec.root.servers).filter(isObject);
  if (servers.length > 0) {
    builder.heading(2, 'Servers');
    builder.list(servers.map((server) => sentence(`${String(server.url)}`, server.description)));
  }
  const tags = asArray(spec.root.tags).filter(isObject);
  if (tags.length > 0) {
    builder.heading(2, 'Tags');
    builder.list(tags.map((tag) => sentence(String(tag.name), tag.description)));
  }
  const schemes = asObject(asObject(spec.root.components).securitySchemes);
  if (Object.keys(schemes).length > 0) {
    builder.heading(2, 'Security schemes');
    builder.list(
      Object.entries(schemes).map(([name, raw]) => {
        const scheme = deref(spec, raw, spec.fileRefs) ?? {};
        return sentence(`\`${name}\`: ${describeScheme(scheme)}`, scheme.description);
      }),
    );
  }
  if (operations.length > 0) {
    builder.heading(2, 'Endpoints');
    builder.list(operations.map((operation) => endpointTitle(operation)));
  }
  const contact = asObject(info.contact);
  const contactParts = [text(contact.name), text(contact.email), text(contact.url)].filter(Boolean);
  const terms = text(info.termsOfService);
  if (contactParts.length > 0 || terms) {
    builder.heading(2, 'Contact');
    builder.paragraph(
      [
        contactParts.length > 0 ? `Contact: ${contactParts.join(', ')}.` : '',
        terms ? `Terms of service: ${terms}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return {
    id: `${spec.file}#info`,
    title,
    text: builder.text,
    blocks: builder.blocks,
    metadata: {
      chunk_type: 'overview',
      openapi: String(spec.root.openapi),
      api_title: title,
      ...(version ? { api_version: version } : {}),
      servers: servers.map((server) => String(server.url)),
      tags: tags.map((tag) => String(tag.name)),
      security_schemes: Object.keys(schemes),
      operation_count: operations.length,
      schema_count: Object.keys(spec.schemas).length,
    },
    refIds: new Set(),
    unresolved: new Set(),
  };
}

function describeScheme(scheme: Json): string {
  switch (scheme.type) {
    case 'http':
      return `HTTP ${String(scheme.scheme ?? '')} authentication${scheme.bearerFormat ? ` (${String(scheme.bearerFormat)})` : ''}`;
    case 'apiKey':
      return `API key in ${String(scheme.in ?? 'header')} \`${String(scheme.name ?? '')}\``;
    case 'openIdConnect':
      return `OpenID Connect (${String(scheme.openIdConnectUrl ?? '')})`;
    case 'oauth2':
      return `OAuth 2.0, ${Object.entries(asObject(scheme.flows))
        .map(([flow, raw]) => {
          const details = asObject(raw);
          const urls = [details.authorizationUrl, details.tokenUrl].filter((url) => typeof url === 'string');
          const scopes = Object.entries(asObject(details.scopes)).map(
            ([scope, meaning]) => `${scope} (${String(meaning)})`,
          );
          return `${flow} flow${urls.length ? ` via ${urls.join(' and ')}` : ''}${scopes.length ? ` with scopes ${scopes.join(', ')}` : ''}`;
        })
        .join('; ')}`;
    default:
      return String(scheme.type ?? 'unknown scheme');
  }
}

function endpointTitle(operation: Operation): string {
  return operation.summary ? `${operation.name} — ${operation.summary}` : operation.name;
}

function renderOperation(spec: Spec, operation: Operation, errorsId: string | undefined): Draft {
  const sink = new RefSink();
  const { node } = operation;
  const builder = new TextBuilder();
  const heading = builder.heading(1, endpointTitle(operation));
  const typeText = operation.action
    ? `${operation.operationType} (${operation.action})`
    : operation.operationType;
  const resourceText = operation.subResource
    ? `${operation.resource} (sub-resource: ${operation.subResource})`
    : operation.resource;
  const tags = asArray(node.tags).map(String);
  const intro =
    `${operation.operationId ? `Operation ID: ${operation.operationId}. ` : ''}` +
    `Operation type: ${typeText}. Resource: ${resourceText}.` +
    `${tags.length > 0 ? ` Tags: ${tags.join(', ')}.` : ''}` +
    `${node.deprecated === true ? ' Deprecated.' : ''}`;
  const introSpan = builder.paragraph(intro);
  const typeStart = introSpan.start + intro.indexOf('Operation type: ') + 'Operation type: '.length;
  const security = describeSecurity(node.security ?? spec.root.security);
  if (security) builder.paragraph(`Authentication: ${security}.`);
  builder.markdown(node.description ?? operation.pathItem.description, 1);

  const parameters = operationParameters(spec, operation, sink);
  if (parameters.length > 0) {
    builder.heading(2, 'Parameters');
    builder.list(parameters.map((parameter) => parameterItem(spec, parameter, sink)));
  }

  const fieldSpans: Array<{ field: PropertyEntry; span: Span }> = [];
  let bodyOwner: string | undefined;
  const requestBody = node.requestBody === undefined ? undefined : deref(spec, node.requestBody, sink);
  if (requestBody) {
    builder.heading(2, 'Request body');
    const media = mediaSchemas(requestBody.content);
    for (const { schema } of media) collectSchemaRefs(spec, schema, 'request_body', sink);
    const body = media[0] ? objectSchemaOf(spec, media[0].schema, sink) : undefined;
    bodyOwner = body?.owner ?? operation.operationId ?? operation.name;
    const fields = body ? propertiesOf(spec, body.schema, bodyOwner, true, sink) : [];
    const required = fields.filter((field) => field.required).map((field) => `\`${field.name}\``);
    builder.paragraph(
      [
        requestBody.required === true ? 'Required.' : 'Optional.',
        media.length > 0
          ? `Body: ${media.map((entry) => `${label(spec, entry.schema, false)} (${entry.mediaType})`).join(', ')}.`
          : '',
        required.length > 0 ? `Required fields: ${required.join(', ')}.` : '',
        oneLine(text(requestBody.description) ?? ''),
      ]
        .filter(Boolean)
        .join(' '),
    );
    const lines = body ? propertyLines(spec, fields, bodyOwner) : [];
    const spans = builder.list(lines.map((line) => line.text));
    lines.forEach((line, index) => {
      if (line.field)
        fieldSpans.push({ field: line.field, span: nameSpan(builder.text, spans[index]!, line.field.name) });
    });
    // The example is what a caller copies: an answer about the endpoint can quote it whole.
    const example = requestExample(spec, requestBody.content, sink);
    if (example !== undefined) {
      builder.paragraph('Example request body:');
      builder.code('json', JSON.stringify(example, null, 2));
    }
  }

  const responses = Object.entries(asObject(node.responses));
  if (responses.length > 0) {
    builder.heading(2, 'Responses');
    builder.list(responses.map(([status, raw]) => responseItem(spec, status, raw, sink)));
  }
  appendUnmentioned(builder, sink);

  const refIds = new Set([...sink.schemas.keys()].map((name) => schemaId(spec, name)));
  if (errorsId) refIds.add(errorsId);
  const facts = new FactsBuilder(builder.text);
  const endpoint = endpointRef(operation);
  facts.entity(endpoint, {
    mentions: [nameSpan(builder.text, heading, operation.name), ...mentionsOf(builder.text, operation.name)],
    definition: { start: 0, end: builder.text.length },
    properties: endpointProperties(operation),
    ...(operation.operationId ? { aliases: [operation.operationId] } : {}),
  });
  const resource = { type: 'Resource', name: operation.resource };
  facts.entity(resource, { mentions: resourceMentions(builder.text, operation) });
  const operationType = { type: 'OperationType', name: operation.operationType };
  facts.entity(operationType, {
    mentions: [{ start: typeStart, end: typeStart + operation.operationType.length }],
  });
  facts.relation(resource, endpoint, 'RESOURCE_HAS_ENDPOINT');
  facts.relation(endpoint, operationType, 'OPERATION_TYPE');
  addSchemaReferences(facts, endpoint, sink);
  for (const { field, span } of fieldSpans) {
    const ref = { type: 'Field', name: `${field.owner}.${field.name}` };
    facts.entity(ref, { mentions: [span], properties: fieldProperties(spec, field) });
    facts.relation(endpoint, ref, 'USES_FIELD');
  }

  return {
    id: operation.id,
    title: endpointTitle(operation),
    text: builder.text,
    blocks: builder.blocks,
    metadata: {
      chunk_type: 'endpoint',
      method: operation.method.toUpperCase(),
      path: operation.path,
      operation_id: operation.operationId ?? null,
      operation_type: operation.operationType,
      resource: operation.resource,
      ...(operation.subResource ? { sub_resource: operation.subResource } : {}),
      ...(operation.action ? { action: operation.action } : {}),
      tags,
      ...(bodyOwner && requestBody ? { request_fields: fieldSpans.map(({ field }) => field.name) } : {}),
      ...(node.deprecated === true ? { deprecated: true } : {}),
    },
    refIds,
    unresolved: sink.unresolved,
    facts: facts.build(),
  };
}

function parameterItem(spec: Spec, parameter: Json, sink: RefSink): string {
  const name = String(parameter.name);
  const media = mediaSchemas(parameter.content);
  collectSchemaRefs(spec, parameter.schema, `parameter:${name}`, sink);
  for (const entry of media) collectSchemaRefs(spec, entry.schema, `parameter:${name}`, sink);
  const attributes = [
    String(parameter.in ?? 'query'),
    parameter.required === true ? 'required' : 'optional',
    ...(parameter.deprecated === true ? ['deprecated'] : []),
    ...schemaAttributes(spec, parameter.schema ?? media[0]?.schema, true),
  ];
  return withExample(sentence(`\`${name}\` (${attributes.join(', ')})`, parameter.description), parameter);
}

/** `201` Created: description. Body: `Location`. Headers: names (their details are in the errors document). */
function responseItem(spec: Spec, status: string, raw: unknown, sink: RefSink): string {
  const response = deref(spec, raw, sink) ?? {};
  const media = mediaSchemas(response.content);
  for (const { schema } of media) collectSchemaRefs(spec, schema, `response:${status}`, sink);
  const headers = Object.entries(asObject(response.headers));
  for (const [, header] of headers) {
    const resolved = deref(spec, header, sink) ?? {};
    collectSchemaRefs(spec, resolved.schema, `response:${status}`, sink);
    for (const entry of mediaSchemas(resolved.content)) {
      collectSchemaRefs(spec, entry.schema, `response:${status}`, sink);
    }
  }
  return [
    sentence(`\`${status}\` ${REASONS[status] ?? ''}`.trim(), response.description),
    bodySentence(spec, media),
    headers.length > 0 ? `Headers: ${headers.map(([name]) => name).join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Path-level parameters, overridden by the operation's own with the same name and location. */
function operationParameters(spec: Spec, operation: Operation, sink: RefSink): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...asArray(operation.pathItem.parameters), ...asArray(operation.node.parameters)]) {
    const parameter = deref(spec, raw, sink);
    if (parameter) byKey.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...byKey.values()];
}

function describeSecurity(security: unknown): string | undefined {
  if (!Array.isArray(security)) return undefined;
  if (security.length === 0) return 'none';
  return security
    .map((requirement) => {
      const entries = Object.entries(asObject(requirement));
      if (entries.length === 0) return 'none (anonymous access)';
      return entries
        .map(([name, scopes]) => {
          const list = asArray(scopes).map(String);
          return list.length > 0 ? `${name} with scope ${list.join(', ')}` : name;
        })
        .join(' and ');
    })
    .join(', or ');
}

function renderErrors(spec: Spec, operation: Operation): Draft | undefined {
  const errorResponses = Object.entries(asObject(operation.node.responses)).filter(([status]) =>
    ERROR_STATUS.test(status),
  );
  if (errorResponses.length === 0) return undefined;
  const sink = new RefSink();
  const statuses = errorResponses.map(([status]) => status);
  // "fails with `409 DUPLICATE_EXTERNAL_ID`" in the operation's or a parameter's description.
  const documented = new Map<string, Set<string>>();
  const prose = [
    operation.node.description,
    ...operationParameters(spec, operation, new RefSink()).map((p) => p.description),
  ];
  for (const description of prose) {
    for (const [, status, code] of (text(description) ?? '').matchAll(STATUS_CODE_PAIR)) {
      if (statuses.includes(status!))
        documented.set(status!, (documented.get(status!) ?? new Set()).add(code!));
    }
  }

  const builder = new TextBuilder();
  const title = `${endpointTitle(operation)}: error responses`;
  const heading = builder.heading(1, title);
  const allCodes = new Set<string>();
  const items = errorResponses.map(([status, raw]) => {
    const response = deref(spec, raw, sink) ?? {};
    const media = mediaSchemas(response.content);
    for (const { schema } of media) collectSchemaRefs(spec, schema, `response:${status}`, sink);
    const own = [...(documented.get(status) ?? [])];
    const listed = [...(text(response.description) ?? '').matchAll(QUOTED_CODE)].map((match) => match[1]!);
    const examples = exampleCodes(spec, response, sink);
    for (const code of [...own, ...listed, ...examples]) allCodes.add(code);
    const headers = Object.entries(asObject(response.headers)).map(([name, rawHeader]) => {
      const header = deref(spec, rawHeader, sink) ?? {};
      collectSchemaRefs(spec, header.schema, `response:${status}`, sink);
      return sentence(`\`${name}\` (${label(spec, header.schema, true)})`, header.description).replace(
        /\.$/,
        '',
      );
    });
    return [
      sentence(`\`${status}\` ${REASONS[status] ?? ''}`.trim(), response.description),
      bodySentence(spec, media),
      own.length > 0 ? `Codes this operation documents: ${own.map((code) => `\`${code}\``).join(', ')}.` : '',
      examples.length > 0 ? `Example error code: ${examples.map((code) => `\`${code}\``).join(', ')}.` : '',
      headers.length > 0 ? `Headers: ${headers.join('; ')}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
  });
  builder.paragraph(
    `Error responses of ${operation.operationId ? `\`${operation.operationId}\` (${operation.name})` : operation.name}: ` +
      `${statuses.join(', ')}.`,
  );
  builder.list(items);
  appendUnmentioned(builder, sink);

  const facts = new FactsBuilder(builder.text);
  const endpoint = endpointRef(operation);
  facts.entity(endpoint, {
    mentions: [nameSpan(builder.text, heading, operation.name), ...mentionsOf(builder.text, operation.name)],
    properties: endpointProperties(operation),
  });
  addSchemaReferences(facts, endpoint, sink);
  for (const code of [...allCodes].sort()) {
    facts.entity(
      { type: 'ErrorCode', name: code },
      { mentions: mentionsOf(builder.text, code, { word: true }) },
    );
  }
  for (const [status, codes] of documented) {
    for (const code of codes) {
      facts.relation(endpoint, { type: 'ErrorCode', name: code }, 'RELATED', { status });
    }
  }

  return {
    id: `${operation.id}/errors`,
    title,
    text: builder.text,
    blocks: builder.blocks,
    metadata: {
      chunk_type: 'errors',
      method: operation.method.toUpperCase(),
      path: operation.path,
      operation_id: operation.operationId ?? null,
      resource: operation.resource,
      tags: asArray(operation.node.tags).map(String),
      status_codes: statuses,
      error_codes: [...allCodes].sort(),
      operation_error_codes: [...new Set([...documented.values()].flatMap((codes) => [...codes]))].sort(),
    },
    refIds: new Set([...sink.schemas.keys()].map((name) => schemaId(spec, name))),
    unresolved: sink.unresolved,
    facts: facts.build(),
  };
}

/** The first example of a request body's JSON media type (`example`, or the first `examples` entry). */
function requestExample(spec: Spec, content: unknown, sink: RefSink): unknown {
  for (const [mediaType, raw] of Object.entries(asObject(content))) {
    if (!/json/i.test(mediaType)) continue;
    const media = asObject(raw);
    if (media.example !== undefined) return media.example;
    const first = Object.values(asObject(media.examples))[0];
    if (first !== undefined) {
      const value = deref(spec, first, sink)?.value;
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** Machine-readable codes in a response's examples (`error.code: VALIDATION_FAILED`). */
function exampleCodes(spec: Spec, response: Json, sink: RefSink): string[] {
  const codes = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(value)) value.forEach((item) => visit(item, depth + 1));
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'code' && typeof inner === 'string' && CONSTANT.test(inner)) codes.add(inner);
        else visit(inner, depth + 1);
      }
    }
  };
  for (const raw of Object.values(asObject(response.content))) {
    const media = asObject(raw);
    visit(media.example, 0);
    for (const example of Object.values(asObject(media.examples)))
      visit(deref(spec, example, sink)?.value, 0);
  }
  return [...codes];
}

function renderSchema(spec: Spec, name: string, raw: unknown): Draft {
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

function schemaId(spec: Spec, name: string): string {
  return `${spec.file}#components/schemas/${name}`;
}

// --- schemas as text ----------------------------------------------------------------------------

interface PropertyEntry {
  name: string;
  schema: unknown;
  required: boolean;
  /** The component schema (or, for an inline request body, the operation) that declares it. */
  owner: string;
}

/** Properties of an object schema, including those it gets through `allOf` (followed with a visited set). */
function propertiesOf(
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
function objectSchemaOf(
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
function propertyLines(spec: Spec, fields: PropertyEntry[], owner: string): PropertyLine[] {
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
function label(spec: Spec, schema: unknown, expand: boolean, depth = 0): string {
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
function schemaAttributes(spec: Spec, schema: unknown, expand: boolean, required = false): string[] {
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

function bodySentence(spec: Spec, media: Array<{ mediaType: string; schema: unknown }>): string {
  const withSchema = media.filter((entry) => entry.schema !== undefined);
  if (withSchema.length === 0) return '';
  if (withSchema.length === 1 && withSchema[0]!.mediaType === 'application/json') {
    return `Body: ${label(spec, withSchema[0]!.schema, true)}.`;
  }
  return `Body: ${withSchema.map((entry) => `${label(spec, entry.schema, true)} (${entry.mediaType})`).join(', ')}.`;
}

/** Every referenced schema is named somewhere in the text, so its entity has a mention to point at. */
function appendUnmentioned(builder: TextBuilder, sink: RefSink): void {
  const missing = [...sink.schemas.keys()].filter((name) => schemaMentions(builder.text, name).length === 0);
  if (missing.length > 0)
    builder.paragraph(`Also references: ${missing.map((name) => `\`${name}\``).join(', ')}.`);
}

// --- facts --------------------------------------------------------------------------------------

/** Collects entities and relations, merging repeats (the same schema named twice). */
class FactsBuilder {
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

function endpointRef(operation: Operation): EntityRef {
  return { type: 'Endpoint', name: operation.name };
}

function endpointProperties(operation: Operation): Record<string, unknown> {
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    operation_id: operation.operationId ?? null,
    ...(operation.summary ? { summary: operation.summary } : {}),
  };
}

function fieldProperties(spec: Spec, field: PropertyEntry): Record<string, unknown> {
  return {
    schema: field.owner,
    field: field.name,
    type: label(spec, field.schema, false).replace(/`/g, ''),
    required: field.required,
  };
}

function addSchemaReferences(facts: FactsBuilder, from: EntityRef, sink: RefSink): void {
  for (const [name, vias] of sink.schemas) {
    const ref = { type: 'Schema', name };
    facts.entity(ref, { mentions: schemaMentions(facts.text, name) });
    facts.relation(from, ref, 'REFERENCES', vias.size > 0 ? { via: [...vias].sort() } : undefined);
  }
}

function resourceMentions(body: string, operation: Operation): Span[] {
  const collection = operation.path
    .split('/')
    .find((segment) => segment && !VERSION_SEGMENT.test(segment) && !segment.startsWith('{'));
  const words = new Set([operation.resource, ...(collection ? [collection] : [])]);
  return [...words].flatMap((word) => mentionsOf(body, word, { word: true, ignoreCase: true }));
}

/** Schema names are written in backticks by the renderers; bare "Location" in prose may mean something else. */
function schemaMentions(body: string, name: string): Span[] {
  return mentionsOf(body, `\`${name}\``, { delimited: true }).map((span) => ({
    start: span.start + 1,
    end: span.end - 1,
  }));
}

/**
 * Occurrences of `name` not inside a longer name: `POST /locations` does not match inside
 * `POST /locations/bulk`. With `word`, only letters, digits and `_` extend a name.
 */
function mentionsOf(
  body: string,
  name: string,
  options: { word?: boolean; ignoreCase?: boolean; delimited?: boolean } = {},
): Span[] {
  if (!name) return [];
  // A name in backticks is delimited already: `{data: \`Thing\`}` still mentions Thing.
  const extendsName = options.word ? /\w/ : /[\w/{}-]/;
  const pattern = new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), options.ignoreCase ? 'gi' : 'g');
  const spans: Span[] = [];
  for (const match of body.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = body[start - 1];
    const after = body[end];
    const extended = (before && extendsName.test(before)) || (after && extendsName.test(after));
    if (extended && !options.delimited) continue;
    spans.push({ start, end });
  }
  return spans;
}

/** Where `name` is written inside a heading or list item (the whole span if it is not). */
function nameSpan(body: string, span: Span, name: string): Span {
  const start = body.indexOf(name, span.start);
  return start !== -1 && start + name.length <= span.end ? { start, end: start + name.length } : span;
}

// --- small helpers ------------------------------------------------------------------------------

function dedupeSpans(spans: Span[]): Span[] {
  const seen = new Set<string>();
  return spans
    .filter((span) => {
      const key = `${span.start}:${span.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.start - b.start);
}

function sortedIds(ids: Iterable<string>, self: string): string[] {
  return [...new Set(ids)].filter((id) => id !== self).sort();
}

function sentence(lead: string, description: unknown): string {
  const body = oneLine(typeof description === 'string' ? description : '');
  if (!body) return `${lead}.`;
  return `${lead}: ${/[.!?:]$/.test(body) ? body : `${body}.`}`;
}

function withExample(line: string, holder: Json): string {
  const example =
    holder.example ?? Object.values(asObject(holder.examples)).map((entry) => asObject(entry).value)[0];
  if (example === undefined || isObject(example) || Array.isArray(example)) return line;
  return `${line} Example: ${format(example)}.`;
}

function format(value: unknown): string {
  const rendered = typeof value === 'string' ? value : JSON.stringify(value);
  return rendered.length > 120 ? `${rendered.slice(0, 117)}...` : rendered;
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
