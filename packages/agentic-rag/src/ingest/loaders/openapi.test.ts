import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ErrorCode } from '../../errors/index.js';
import type { LoadedDocument } from '../document.js';
import { loaderFor } from './index.js';
import { OfflineEntityExtractor, resourceName as singular } from '../../graph/index.js';
import { loadOpenApi } from './openapi.js';
import { loadYaml } from './yaml.js';

const FILE = 'northwind-logistics/api/openapi.yaml';
const SPEC_TEXT = readFileSync(
  fileURLToPath(new URL(`../../../../../simulated_ingestion/${FILE}`, import.meta.url)),
  'utf8',
);

const load = (sourcePath: string, text: string) => loaderFor(sourcePath)!({ sourcePath, text });
const byId = (documents: LoadedDocument[]) =>
  new Map(documents.map((document) => [document.sourcePath, document]));
const ids = (document: LoadedDocument | undefined, key: 'ref_ids' | 'referenced_by') =>
  (document?.metadata[key] ?? []) as string[];
const op = (path: string, method: string) => `${FILE}#paths${path}/${method}`;
const schema = (name: string) => `${FILE}#components/schemas/${name}`;

describe('OpenAPI loader on the sample spec', () => {
  const result = load(FILE, SPEC_TEXT);
  const documents = byId(result.documents);
  const endpoints = result.documents.filter((document) => document.metadata.chunk_type === 'endpoint');
  const get = (id: string) => {
    const document = documents.get(id);
    expect(document, id).toBeDefined();
    return document!;
  };

  it('loads the file without failures into openapi documents of that file', () => {
    expect(result.failures).toEqual([]);
    expect(new Set(result.documents.map((document) => document.kind))).toEqual(new Set(['openapi']));
    expect(new Set(result.documents.map((document) => document.sourceFile))).toEqual(new Set([FILE]));
    expect(documents.size).toBe(result.documents.length);
    const counts = new Map<unknown, number>();
    for (const document of result.documents) {
      counts.set(document.metadata.chunk_type, (counts.get(document.metadata.chunk_type) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ overview: 1, endpoint: 22, errors: 22, schema: 37 });
  });

  // method, path, operation_type, resource, sub_resource or action
  it.each([
    ['get', '/locations', 'list', 'location', {}],
    ['post', '/locations', 'create', 'location', {}],
    ['post', '/locations/bulk', 'create', 'location', {}],
    ['get', '/locations/{locationId}', 'read', 'location', {}],
    ['patch', '/locations/{locationId}', 'update', 'location', {}],
    ['delete', '/locations/{locationId}', 'delete', 'location', {}],
    ['get', '/shipments', 'list', 'shipment', {}],
    ['post', '/shipments', 'create', 'shipment', {}],
    ['get', '/shipments/{shipmentId}', 'read', 'shipment', {}],
    ['post', '/shipments/{shipmentId}/cancel', 'action', 'shipment', { action: 'cancel' }],
    ['get', '/shipments/{shipmentId}/events', 'list', 'shipment', { sub_resource: 'event' }],
    ['get', '/shipments/{shipmentId}/label', 'read', 'shipment', { sub_resource: 'label' }],
    ['get', '/carriers', 'list', 'carrier', {}],
    ['post', '/carriers', 'create', 'carrier', {}],
    ['get', '/carriers/{carrierId}', 'read', 'carrier', {}],
    ['get', '/carriers/{carrierId}/rates', 'read', 'carrier', { sub_resource: 'rate' }],
    ['put', '/carriers/{carrierId}/rates', 'update', 'carrier', { sub_resource: 'rate' }],
    ['post', '/rates/quote', 'action', 'rate', { action: 'quote' }],
    ['post', '/addresses/validate', 'action', 'address', { action: 'validate' }],
    ['get', '/webhooks', 'list', 'webhook', {}],
    ['post', '/webhooks', 'create', 'webhook', {}],
    ['delete', '/webhooks/{webhookId}', 'delete', 'webhook', {}],
  ])('%s %s is %s on %s', (method, path, operationType, resource, extra) => {
    const document = get(op(path, method));
    expect(document.metadata).toMatchObject({
      chunk_type: 'endpoint',
      method: method.toUpperCase(),
      path,
      operation_type: operationType,
      resource,
      ...extra,
    });
    expect(document.metadata.sub_resource).toBe((extra as { sub_resource?: string }).sub_resource);
    expect(document.metadata.action).toBe((extra as { action?: string }).action);
    expect(document.title!.startsWith(`${method.toUpperCase()} ${path} — `)).toBe(true);
    expect(endpoints).toHaveLength(22);
  });

  it('renders POST /locations as readable text with everything a question may ask about', () => {
    const document = get(op('/locations', 'post'));
    expect(document.title).toBe('POST /locations — Create a location');
    expect(document.metadata).toMatchObject({ operation_id: 'createLocation', tags: ['Locations'] });
    for (const expected of [
      '# POST /locations — Create a location\n',
      'Operation ID: createLocation. Operation type: create. Resource: location.',
      'OAuth2ClientCredentials with scope locations:write',
      'request fails with\n`422 INVALID_ADDRESS`',
      '- `Idempotency-Key` (header, optional, string, max length 255): Unique key (max 255 characters)',
      'Body: `LocationInput` (application/json). Required fields: `name`, `type`, `address`.',
      '- `name` (string, required, max length 120).',
      '- `201` Created: The location was created. Body: `Location`.',
      '- `409` Conflict: The request conflicts with the current state',
      'Example request body:\n\n```json\n{\n  "name": "Reno Distribution Center",\n  "type": "warehouse",',
    ]) {
      expect(document.text).toContain(expected);
    }
    const code = document.blocks.find((block) => block.type === 'code');
    const example = document.text.slice(code!.start, code!.end).replace(/^```json\n|\n```$/g, '');
    expect(JSON.parse(example)).toMatchObject({ external_id: 'WH-RENO-01', address: { city: 'Reno' } });
    expect(document.blocks.filter((block) => block.type === 'heading').map((block) => block.title)).toEqual([
      'POST /locations — Create a location',
      'Parameters',
      'Request body',
      'Responses',
    ]);
  });

  it('points POST /locations at its schemas through components/responses and at its errors document', () => {
    expect(ids(get(op('/locations', 'post')), 'ref_ids')).toEqual([
      schema('Error'),
      schema('Location'),
      schema('LocationInput'),
      op('/locations', 'post/errors'),
    ]);
    // An inline response schema is looked through to the component it wraps.
    expect(ids(get(op('/rates/quote', 'post')), 'ref_ids')).toContain(schema('RateQuote'));
    // Every referenced schema is named where it is used, never only in a catch-all line.
    for (const document of result.documents) expect(document.text).not.toContain('Also references');
    // A parameter's schema counts: GET /locations filters by LocationType.
    expect(ids(get(op('/locations', 'get')), 'ref_ids')).toContain(schema('LocationType'));
  });

  it('keeps the $ref cycles as references and still terminates', () => {
    const location = get(schema('Location'));
    expect(location.metadata.recursive).toBe(true);
    expect(ids(location, 'ref_ids')).not.toContain(schema('Location'));
    expect(location.facts!.relations).toContainEqual({
      from: { type: 'Schema', name: 'Location' },
      to: { type: 'Schema', name: 'Location' },
      type: 'REFERENCES',
      properties: { via: ['parent_location'] },
    });
    const shipment = get(schema('Shipment'));
    const event = get(schema('ShipmentEvent'));
    expect(ids(shipment, 'ref_ids')).toContain(schema('ShipmentEvent'));
    expect(ids(event, 'ref_ids')).toContain(schema('Shipment'));
    expect(ids(shipment, 'referenced_by')).toContain(schema('ShipmentEvent'));
    expect(ids(event, 'referenced_by')).toContain(schema('Shipment'));
  });

  it('makes referenced_by the exact inverse of ref_ids, sorted, unique, never self, never dangling', () => {
    const edges = (key: 'ref_ids' | 'referenced_by') =>
      result.documents
        .flatMap((document) =>
          ids(document, key).map((other) =>
            key === 'ref_ids' ? `${document.sourcePath} -> ${other}` : `${other} -> ${document.sourcePath}`,
          ),
        )
        .sort();
    expect(edges('referenced_by')).toEqual(edges('ref_ids'));
    for (const document of result.documents) {
      for (const key of ['ref_ids', 'referenced_by'] as const) {
        const list = ids(document, key);
        expect(list, `${document.sourcePath} ${key}`).toEqual([...new Set(list)].sort());
        expect(list).not.toContain(document.sourcePath);
        for (const target of list) expect(documents.has(target), target).toBe(true);
      }
    }
  });

  it('writes an errors document for every operation with 4xx/5xx responses', () => {
    for (const endpoint of endpoints) {
      const errors = get(`${endpoint.sourcePath}/errors`);
      expect(errors.metadata.chunk_type).toBe('errors');
      expect(ids(endpoint, 'ref_ids')).toContain(errors.sourcePath);
      expect(ids(errors, 'referenced_by')).toEqual([endpoint.sourcePath]);
    }
    const errors = get(op('/shipments', 'post/errors'));
    expect(errors.metadata).toMatchObject({
      status_codes: ['400', '401', '403', '404', '409', '422', '429', '503'],
      operation_error_codes: ['CARRIER_SUSPENDED', 'CUSTOMS_DATA_REQUIRED', 'IDEMPOTENCY_KEY_REUSED'],
      ref_ids: [schema('Error')],
    });
    expect(errors.text).toContain('- `503` Service Unavailable: The carrier did not respond in time');
    expect(errors.text).toContain('Headers: `Retry-After` (integer): Seconds to wait before retrying');
    expect(errors.text).toContain('Codes this operation documents: `CARRIER_SUSPENDED`');
    expect(errors.facts!.relations).toContainEqual({
      from: { type: 'Endpoint', name: 'POST /shipments' },
      to: { type: 'ErrorCode', name: 'CARRIER_SUSPENDED' },
      type: 'RELATED',
      properties: { status: '409' },
    });
  });

  it('describes a schema: properties with type, enum, required, description and $refs by name', () => {
    const document = get(schema('Shipment'));
    expect(document.title).toBe('Shipment schema');
    expect(document.metadata).toMatchObject({
      chunk_type: 'schema',
      schema_name: 'Shipment',
      required_fields: ['id', 'status', 'origin', 'destination', 'parcels', 'created_at'],
    });
    expect(document.metadata.fields).toContain('recent_events');
    for (const expected of [
      '- `status` (`ShipmentStatus`, required).',
      '- `recent_events` (array of `ShipmentEvent`, max items 20).',
      '- `tracking_url` (string (uri), nullable).',
      '- `return_of` (string, nullable): For return shipments, the id of the original outbound shipment.',
    ]) {
      expect(document.text).toContain(expected);
    }
    expect(get(schema('ShipmentStatus')).text).toContain(
      'Component schema `ShipmentStatus`: string, one of: draft, label_created, in_transit',
    );
    // Nested inline objects are listed as dotted paths.
    expect(get(schema('Error')).text).toContain(
      '- `error.code` (string, required): Stable machine-readable error code.',
    );
  });

  it('states endpoint facts: Endpoint, Resource, OperationType, Schemas, request Fields', () => {
    const document = get(op('/locations', 'post'));
    const facts = document.facts!;
    const names = facts.entities.map((entity) => `${entity.type}:${entity.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'Endpoint:POST /locations',
        'Resource:location',
        'OperationType:create',
        'Schema:Location',
        'Schema:LocationInput',
        'Schema:Error',
        'Field:LocationInput.name',
        'Field:LocationInput.address',
      ]),
    );
    const endpoint = facts.entities.find((entity) => entity.type === 'Endpoint')!;
    expect(endpoint).toMatchObject({
      aliases: ['createLocation'],
      properties: { method: 'POST', path: '/locations', operation_id: 'createLocation' },
      definition: { start: 0, end: document.text.length },
    });
    expect(endpoint.mentions[0]).toEqual({ start: 2, end: 2 + 'POST /locations'.length });
    const relation = (type: string, from: string, to: string) =>
      facts.relations.some(
        (current) => current.type === type && current.from.name === from && current.to.name === to,
      );
    expect(relation('RESOURCE_HAS_ENDPOINT', 'location', 'POST /locations')).toBe(true);
    expect(relation('OPERATION_TYPE', 'POST /locations', 'create')).toBe(true);
    expect(relation('REFERENCES', 'POST /locations', 'LocationInput')).toBe(true);
    expect(relation('USES_FIELD', 'POST /locations', 'LocationInput.name')).toBe(true);
    expect(facts.entities.find((entity) => entity.name === 'LocationInput.name')!.properties).toEqual({
      schema: 'LocationInput',
      field: 'name',
      type: 'string',
      required: true,
    });
  });

  it('gives every entity mentions that slice back to its name, and keeps relations inside the facts', () => {
    for (const document of result.documents) {
      const facts = document.facts;
      if (!facts) continue;
      const known = new Set(facts.entities.map((entity) => `${entity.type}:${entity.name}`));
      for (const entity of facts.entities) {
        expect(entity.mentions.length, `${document.sourcePath} ${entity.name}`).toBeGreaterThan(0);
        const expected =
          entity.type === 'Field' ? entity.name.slice(entity.name.lastIndexOf('.') + 1) : entity.name;
        for (const span of entity.mentions) {
          const written = document.text.slice(span.start, span.end);
          if (entity.type === 'Resource') expect(singular(written)).toBe(entity.name);
          else expect(written, `${document.sourcePath} ${entity.type}`).toBe(expected);
        }
      }
      for (const relation of facts.relations) {
        expect(known.has(`${relation.from.type}:${relation.from.name}`)).toBe(true);
        expect(known.has(`${relation.to.type}:${relation.to.name}`)).toBe(true);
      }
    }
  });

  it('emits ordered blocks whose headings slice back to their titles', () => {
    for (const document of result.documents) {
      let previousEnd = 0;
      for (const block of document.blocks) {
        expect(block.start).toBeGreaterThanOrEqual(previousEnd);
        expect(block.end).toBeLessThanOrEqual(document.text.length);
        if (block.type === 'heading') {
          expect(document.text.slice(block.start, block.end)).toBe(
            `${'#'.repeat(block.level!)} ${block.title}`,
          );
        }
        previousEnd = block.end;
      }
    }
  });

  it('loads the same spec written as JSON into the same documents', () => {
    const jsonPath = 'northwind-logistics/api/openapi.json';
    const fromJson = load(jsonPath, JSON.stringify(parseYaml(SPEC_TEXT), null, 2));
    expect(fromJson.failures).toEqual([]);
    expect(JSON.stringify(fromJson.documents).replaceAll(jsonPath, FILE)).toBe(
      JSON.stringify(result.documents),
    );
  });
});

const SMALL = `openapi: 3.1.0
info: { title: Small API, version: '1' }
paths:
  /v2/things:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
    post:
      operationId: createThing
      requestBody: { $ref: '#/components/requestBodies/ThingBody' }
      responses:
        '201': { $ref: '#/components/responses/Created' }
        '500': { $ref: '#/components/responses/Gone' }
  /things/{id}/parts:
    post:
      parameters: [{ $ref: '#/components/parameters/Loop1' }, { $ref: '#/components/parameters/Id' }]
      responses: { '202': { description: queued } }
  /things/{id}/archive:
    post:
      responses: { '204': { description: archived }, '404': { description: no such thing } }
  /boxes:
    head: { responses: { '200': { description: exists } } }
components:
  parameters:
    Id: { name: id, in: path, required: true, schema: { $ref: '#/components/schemas/Missing' } }
    Loop1: { $ref: '#/components/parameters/Loop2' }
    Loop2: { $ref: '#/components/parameters/Loop1' }
  requestBodies:
    ThingBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  responses:
    Created: { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  schemas:
    Base:
      type: object
      required: [id]
      properties: { id: { type: string } }
    Thing:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          required: [label]
          properties: { label: { type: string }, owner: { $ref: 'other.yaml#/Owner' } }
`;

describe('OpenAPI loader on small inline specs', () => {
  const result = load('api/small.yaml', SMALL);
  const documents = byId(result.documents);
  const document = (id: string) => documents.get(`api/small.yaml#${id}`)!;

  it.each([
    ['paths/v2/things/get', 'list', 'thing'],
    ['paths/v2/things/post', 'create', 'thing'],
    ['paths/things/{id}/parts/post', 'create', 'thing'],
    ['paths/things/{id}/archive/post', 'action', 'thing'],
    ['paths/boxes/head', 'list', 'box'],
  ])('classifies %s as %s on %s', (id, operationType, resource) => {
    expect(document(id).metadata).toMatchObject({ operation_type: operationType, resource });
  });

  it('keeps documents with dangling or cyclic $refs and lists the refs in unresolved_refs', () => {
    expect(result.failures).toEqual([]);
    expect(document('paths/v2/things/post').metadata.unresolved_refs).toEqual([
      '#/components/responses/Gone',
    ]);
    expect(document('paths/v2/things/post/errors').metadata.unresolved_refs).toEqual([
      '#/components/responses/Gone',
    ]);
    expect(document('paths/things/{id}/parts/post').metadata.unresolved_refs).toEqual([
      '#/components/parameters/Loop1',
      '#/components/schemas/Missing',
    ]);
    expect(document('paths/things/{id}/parts/post').text).toContain(
      '`id` (path, required, `#/components/schemas/Missing` (unresolved))',
    );
    expect(document('components/schemas/Thing').metadata.unresolved_refs).toEqual(['other.yaml#/Owner']);
    expect(document('info').metadata.unresolved_refs).toEqual([
      '#/components/parameters/Loop1',
      '#/components/responses/Gone',
      '#/components/schemas/Missing',
      'other.yaml#/Owner',
    ]);
    expect(document('paths/v2/things/get').metadata.unresolved_refs).toBeUndefined();
  });

  it('resolves request bodies and responses through components to their schemas', () => {
    expect(ids(document('paths/v2/things/post'), 'ref_ids')).toEqual([
      'api/small.yaml#components/schemas/Thing',
      'api/small.yaml#paths/v2/things/post/errors',
    ]);
  });

  it('gives a schema the properties it inherits through allOf, owned by the schema that declares them', () => {
    const thing = document('components/schemas/Thing');
    expect(thing.metadata).toMatchObject({
      fields: ['id', 'label', 'owner'],
      required_fields: ['id', 'label'],
    });
    expect(ids(thing, 'ref_ids')).toEqual(['api/small.yaml#components/schemas/Base']);
    expect(thing.text).toContain('- `id` (string, required) (from `Base`).');
    const fields = thing
      .facts!.entities.filter((entity) => entity.type === 'Field')
      .map((entity) => entity.name);
    expect(fields).toEqual(['Base.id', 'Thing.label', 'Thing.owner']);
    expect(
      document('paths/v2/things/post')
        .facts!.entities.filter((entity) => entity.type === 'Field')
        .map((e) => e.name),
    ).toEqual(['Base.id', 'Thing.label', 'Thing.owner']);
  });

  it('writes no errors document for an operation without error responses', () => {
    expect(documents.has('api/small.yaml#paths/things/{id}/parts/post/errors')).toBe(false);
    expect(documents.has('api/small.yaml#paths/things/{id}/archive/post/errors')).toBe(true);
  });
});

describe('dispatch between the OpenAPI and the generic loaders', () => {
  it.each([
    ['a plain YAML file', 'conf/app.yaml', 'name: x\nitems: [1, 2]\n'],
    ['a Swagger 2.0 spec', 'api/swagger.yml', "swagger: '2.0'\ninfo: { title: Old }\npaths: {}\n"],
    ['an openapi field that is not 3.x', 'api/future.yaml', "openapi: '4.0.0'\npaths: {}\n"],
  ])('sends %s to the generic YAML loader unchanged', (_case, sourcePath, text) => {
    expect(load(sourcePath, text)).toEqual(loadYaml({ sourcePath, text }));
    expect(load(sourcePath, text).documents[0]!.kind).toBe('yaml');
  });

  it('loads a JSON spec exactly like the same spec in YAML', () => {
    const yaml = load('api/small.yaml', SMALL);
    const json = load('api/small.json', JSON.stringify(parseYaml(SMALL)));
    expect(JSON.stringify(json).replaceAll('api/small.json', 'api/small.yaml')).toBe(JSON.stringify(yaml));
  });

  it.each([
    ['YAML', 'api/broken.yaml', 'openapi: 3.0.3\npaths:\n  /a: [1, 2\n', /^invalid YAML: /],
    ['JSON', 'api/broken.json', '{"openapi": "3.0.3", "paths": {', /^invalid JSON: /],
  ])('reports an unparseable %s spec as PARSE_FAILED', (_case, sourcePath, text, message) => {
    const loaded = load(sourcePath, text);
    expect(loaded.documents).toEqual([]);
    expect(loaded.failures).toHaveLength(1);
    expect(loaded.failures[0]).toMatchObject({ sourcePath, code: ErrorCode.PARSE_FAILED });
    expect(loaded.failures[0]!.message).toMatch(message);
  });

  it('reports a file that is not an OpenAPI 3 document as PARSE_FAILED when loadOpenApi is called directly', () => {
    expect(loadOpenApi({ sourcePath: 'a.yaml', text: 'name: x\n' }).failures).toEqual([
      {
        sourcePath: 'a.yaml',
        code: ErrorCode.PARSE_FAILED,
        message: 'invalid OpenAPI 3 document: no "openapi: 3.x" field',
      },
    ]);
  });

  it.each([
    ['shipments', 'shipment'],
    ['addresses', 'address'],
    ['categories', 'category'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['rateCards', 'rate-card'],
    ['rate-cards', 'rate-card'],
    ['quote', 'quote'],
  ])('singularises the resource segment %s as %s', (segment, expected) => {
    expect(singular(segment)).toBe(expected);
  });
});

describe('one naming of resources with the offline extractor', () => {
  const spec = [
    'openapi: 3.0.3',
    'info: {title: Tariffs, version: "1"}',
    'paths:',
    '  /v2/rate-cards: {get: {summary: List rate cards, responses: {"200": {description: ok}}}}',
    '  /api/webhook_subscriptions/{id}: {delete: {summary: Remove one, responses: {"204": {description: ok}}}}',
  ].join('\n');

  it.each([
    ['/v2/rate-cards', 'get', 'rate-card'],
    ['/api/webhook_subscriptions/{id}', 'delete', 'webhook-subscription'],
  ])('names %s the way the extractor names it in prose', async (path, method, resource) => {
    const loaded = loadOpenApi({ sourcePath: 'tariffs.yaml', text: spec }).documents;
    const operation = loaded.find(
      (document) => document.sourcePath === `tariffs.yaml#paths${path}/${method}`,
    );
    expect(operation?.metadata.resource).toBe(resource);
    const prose = await new OfflineEntityExtractor().extract({
      text: `Call \`${method.toUpperCase()} ${path}\` first.`,
      title: null,
      kind: 'markdown',
      sourcePath: 'notes.md',
    });
    const resources = prose.entities.filter((entity) => entity.type === 'Resource').map(({ name }) => name);
    expect(resources).toEqual([resource]);
  });
});

describe("an operation's own vocabulary for retrieval", () => {
  const documents = byId(load(FILE, SPEC_TEXT).documents);

  it.each([
    [
      op('/locations', 'post'),
      {
        summary: 'Create a location',
        tag_descriptions: [
          'Warehouses, stores, drop-off points and returns centres that ship or receive parcels.',
        ],
      },
    ],
    [
      op('/shipments/{shipmentId}/cancel', 'post'),
      { summary: 'Cancel a shipment', description_lead: 'Cancels a shipment and voids its label.' },
    ],
  ])('%s keeps the words the spec uses for it', (id, expected) => {
    expect(documents.get(id)?.metadata).toMatchObject(expected);
  });
});
