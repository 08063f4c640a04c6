import type { Span } from '../../../graph/index.js';
import { REASONS, requestExample } from './errors.js';
import {
  FactsBuilder,
  endpointRef,
  endpointProperties,
  fieldProperties,
  addSchemaReferences,
} from './facts.js';
import { type Json, sentence, withExample, oneLine, text, isObject, asObject, asArray } from './json.js';
import { mentionsOf, nameSpan, resourceMentions } from './mentions.js';
import { type Operation, endpointTitle, operationParameters } from './operations.js';
import { type Spec, RefSink, deref, collectSchemaRefs, mediaSchemas } from './refs.js';
import {
  type PropertyEntry,
  propertiesOf,
  objectSchemaOf,
  propertyLines,
  label,
  schemaAttributes,
  bodySentence,
  appendUnmentioned,
} from './schema-text.js';
import { schemaId } from './schema.js';
import { type Draft, TextBuilder } from './text-builder.js';

/** One operation as a document: what it does, its parameters, request body, responses and facts. */

export function renderOperation(spec: Spec, operation: Operation, errorsId: string | undefined): Draft {
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
      path_segments: operation.segments,
      ...(operation.subResource ? { sub_resource: operation.subResource } : {}),
      ...(operation.action ? { action: operation.action } : {}),
      tags,
      ...operationVocabulary(spec, operation, tags, bodyOwner),
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

/**
 * The spec's own words for what an operation is about, kept apart by where they come from so
 * retrieval can weigh them: the summary ("Cancel a shipment"), the first sentence of the
 * description ("Cancels a shipment and voids its label."), the descriptions of its tags ("Warehouses,
 * stores, drop-off points and returns centres ...") and the request body's schema. A question in
 * plain words ("get rid of a returns centre") meets the operation through these, not through the
 * word "endpoint".
 */
/** Characters of an operation's description kept in its metadata. */
const DESCRIPTION_LIMIT = 1200;

function operationVocabulary(
  spec: Spec,
  operation: Operation,
  tags: string[],
  bodyOwner: string | undefined,
): Record<string, unknown> {
  const tagDescriptions = asArray(spec.root.tags)
    .filter(isObject)
    .filter((tag) => tags.includes(String(tag.name)))
    .map((tag) => text(tag.description))
    .filter((description): description is string => description !== undefined)
    .map(oneLine);
  // Some specs write descriptions as HTML (`<p>Retrieves the details of an account.</p>`).
  const raw = text(operation.node.description) ?? text(operation.pathItem.description);
  const description = raw?.replace(/<[^>]+>/g, ' ');
  const lead = description ? /^[^\n]*?[.!?](?=\s|$)|^[^\n]+/.exec(oneLine(description))?.[0] : undefined;
  const parameters = operationParameters(spec, operation, new RefSink())
    .map((parameter) => String(parameter.name ?? ''))
    .filter((name) => name !== '');
  return {
    ...(operation.summary ? { summary: operation.summary } : {}),
    ...(lead ? { description_lead: lead } : {}),
    // The whole description, for retrieval to weigh as a field of its own (capped: some specs
    // put pages of prose in one operation).
    ...(description ? { description: oneLine(description).slice(0, DESCRIPTION_LIMIT) } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(tagDescriptions.length > 0 ? { tag_descriptions: tagDescriptions } : {}),
    ...(bodyOwner && bodyOwner !== operation.operationId && bodyOwner !== operation.name
      ? { body_schema: bodyOwner }
      : {}),
  };
}
