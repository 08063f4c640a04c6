import { FactsBuilder, endpointRef, endpointProperties, addSchemaReferences } from './facts.js';
import { type Json, sentence, text, isObject, asObject, asArray } from './json.js';
import { mentionsOf, nameSpan } from './mentions.js';
import { type Operation, endpointTitle, operationParameters } from './operations.js';
import { type Spec, RefSink, deref, collectSchemaRefs, mediaSchemas } from './refs.js';
import { label, bodySentence, appendUnmentioned } from './schema-text.js';
import { schemaId } from './schema.js';
import { type Draft, TextBuilder } from './text-builder.js';

/** The `/errors` document of an operation: its 4xx/5xx responses and the error codes each documents. */

const ERROR_STATUS = /^(?:[45](?:\d\d|XX)|default)$/i;
/** `422 INVALID_ADDRESS` in an operation's description: a code the operation documents for a status. */
const STATUS_CODE_PAIR = /\b([45]\d\d)\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
/** `` `CARRIER_SUSPENDED` `` in a response's description. */
const QUOTED_CODE = /`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`/g;
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

export const REASONS: Readonly<Record<string, string>> = {
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

export function renderErrors(spec: Spec, operation: Operation): Draft | undefined {
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
export function requestExample(spec: Spec, content: unknown, sink: RefSink): unknown {
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
