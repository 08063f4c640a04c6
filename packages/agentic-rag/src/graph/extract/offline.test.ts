import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import type { DocumentFacts, EntityFact } from '../facts.js';
import { entityKey } from '../resolve.js';
import { MAX_RELATED_PER_UNIT, OfflineEntityExtractor, extractEntities } from './offline.js';

const corpus = fileURLToPath(new URL('../../../../../simulated_ingestion/', import.meta.url));
const read = (path: string) => readFileSync(join(corpus, path), 'utf8');

const find = (facts: DocumentFacts, type: string, name: string): EntityFact | undefined =>
  facts.entities.find((entity) => entity.type === type && entity.name === name);
const names = (facts: DocumentFacts, type: string) =>
  facts.entities.filter((entity) => entity.type === type).map((entity) => entity.name);
const written = (text: string, entity: EntityFact) =>
  entity.mentions.map((span) => text.slice(span.start, span.end));
const weightOf = (facts: DocumentFacts, a: string, b: string) =>
  facts.relations.find(
    (relation) =>
      relation.type === 'RELATED' &&
      ((relation.from.name === a && relation.to.name === b) ||
        (relation.from.name === b && relation.to.name === a)),
  )?.weight;

describe('extractEntities: one kind at a time', () => {
  it.each([
    [
      'an endpoint in a code span',
      'Call `POST /locations` to create one.',
      'Endpoint',
      'POST /locations',
      ['POST /locations'],
    ],
    [
      'an endpoint with a path parameter',
      'Poll `GET /shipments/{shipmentId}/events` for updates.',
      'Endpoint',
      'GET /shipments/{shipmentId}/events',
      ['GET /shipments/{shipmentId}/events'],
    ],
    [
      'an endpoint in plain text',
      'Error rate on POST /shipments drops.',
      'Endpoint',
      'POST /shipments',
      ['POST /shipments'],
    ],
    [
      "an endpoint's resource, singular",
      'Call `POST /locations` now.',
      'Resource',
      'location',
      ['locations'],
    ],
    [
      'a method-less path as a resource',
      'The base is `/v2/locations` here.',
      'Resource',
      'location',
      ['locations'],
    ],
    // One naming with the OpenAPI loader (graph/naming): before it, a kebab-case or snake_case
    // collection named no resource here while the loader called it `rate-card`.
    [
      'a kebab-case collection as the loader names it',
      'Call `GET /rate-cards` first.',
      'Resource',
      'rate-card',
      ['rate-cards'],
    ],
    [
      'a snake_case collection under an api segment',
      'The base is `/api/rate_cards` here.',
      'Resource',
      'rate-card',
      ['rate_cards'],
    ],
    [
      'a camelCase identifier',
      'The client calls `createLocation` once.',
      'Identifier',
      'createLocation',
      ['createLocation'],
    ],
    [
      'a header',
      'Send `Northwind-Version: 2025-01-13` always.',
      'Identifier',
      'Northwind-Version',
      ['Northwind-Version'],
    ],
    [
      'a header in plain text',
      '503 without Retry-After encouraged retries.',
      'Identifier',
      'Retry-After',
      ['Retry-After'],
    ],
    ['a snake_case field', 'Pass `carrier_id` to pick one.', 'Identifier', 'carrier_id', ['carrier_id']],
    [
      'an event name',
      'Subscribe to `shipment.delivered` events.',
      'Identifier',
      'shipment.delivered',
      ['shipment.delivered'],
    ],
    ['an incident id', 'See INC-2291 for the timeline.', 'Identifier', 'INC-2291', ['INC-2291']],
    [
      'an error code after a status',
      'It returns `409 CARRIER_SUSPENDED` then.',
      'ErrorCode',
      'CARRIER_SUSPENDED',
      ['CARRIER_SUSPENDED'],
    ],
    [
      'an error code by its shape',
      'Clients see `rate_limit_exceeded` when throttled.',
      'ErrorCode',
      'rate_limit_exceeded',
      ['rate_limit_exceeded'],
    ],
    [
      'an error code in plain text',
      'Purchases fail with 503 CARRIER_UNAVAILABLE today.',
      'ErrorCode',
      'CARRIER_UNAVAILABLE',
      ['CARRIER_UNAVAILABLE'],
    ],
    [
      'a schema next to "schema"',
      'The `ShipmentEvent` schema holds the code.',
      'Schema',
      'ShipmentEvent',
      ['ShipmentEvent'],
    ],
    [
      'a single-word schema next to "object"',
      'It returns a `Location` object.',
      'Schema',
      'Location',
      ['Location'],
    ],
    [
      'a multi-word PascalCase code span',
      'Add a complete `CustomsDeclaration` first.',
      'Schema',
      'CustomsDeclaration',
      ['CustomsDeclaration'],
    ],
    [
      'an alert name',
      'Alert `CarrierErrorRateHigh` pages the on-call.',
      'Identifier',
      'CarrierErrorRateHigh',
      ['CarrierErrorRateHigh'],
    ],
    [
      'a schema field',
      'Read `Location.parent_location` for it.',
      'Field',
      'Location.parent_location',
      ['Location.parent_location'],
    ],
    ['an acronym', 'We initialise LES from a solution.', 'Acronym', 'LES', ['LES']],
    ['a plural acronym', 'Beliefs in POMDPs are distributions.', 'Acronym', 'POMDP', ['POMDPs']],
    ['a compound acronym', 'Exploration with R-MAX is optimistic.', 'Acronym', 'R-MAX', ['R-MAX']],
    [
      'a capitalised name',
      'Notes from the Aerothermal Methods Group follow.',
      'Concept',
      'Aerothermal Methods Group',
      ['Aerothermal Methods Group'],
    ],
    [
      'a name at a sentence start',
      'Northwind Freight ships parcels.',
      'Concept',
      'Northwind Freight',
      ['Northwind Freight'],
    ],
    ['an eponym', 'We use a Gauss–Seidel sweep.', 'Concept', 'Gauss–Seidel', ['Gauss–Seidel']],
    [
      'a glossary term',
      '**Billable weight** — The weight a carrier charges for.',
      'Concept',
      'Billable weight',
      ['Billable weight'],
    ],
    [
      'a bold term and its other uses',
      'A **particle filter** represents the belief. Each particle filter step resamples.',
      'Concept',
      'particle filter',
      ['particle filter', 'particle filter'],
    ],
  ])('finds %s', (_, text, type, name, slices) => {
    const facts = extractEntities(text);
    const entity = find(facts, type, name);
    expect(entity, `${type} ${name} in ${JSON.stringify(facts.entities)}`).toBeDefined();
    expect(written(text, entity!)).toEqual(slices);
  });

  it.each([
    ['a shouted English word', 'Do NOT retry automatically; it is not safe.', 'Acronym'],
    ['generic format and protocol acronyms', 'Use the API over HTTP and JSON.', 'Acronym'],
    ['roman numerals', 'It prints ZPL II at 203 dpi. Chapter IV covers it.', 'Acronym:II|IV'],
    ['a shouted heading line', 'INCIDENT TIMELINE FOR MERIDIAN\n\nText follows.', 'Acronym'],
    ['a printer command', 'Raise darkness (ZPL ~SD to 15).', 'Acronym:SD'],
    ['a single capitalised word at a sentence start', 'Carrier reported. The Carrier was late.', 'Concept'],
    ['a run starting with a verb or article', 'Calls Meridian partners. The Board met.', 'Concept'],
    ['a capitalised run only in a heading', '## Getting Started Quickly\n\nSome text here.', 'Concept'],
    ['numbered entities', 'See Algorithm 3.2, Equation 7.5 and Repeat Example 19.1 again.', 'any'],
    [
      'job titles',
      'Dr. Ingrid Halvorsen, Principal Fulfilment Engineer, wrote it.',
      'Concept:Principal Fulfilment Engineer',
    ],
    [
      'bold emphasis',
      'It is shown **only once** and **not ordered**, so **charged only when scanned**.',
      'any',
    ],
    ['a button label', 'Use **Roll key** on the detail page.', 'any'],
    ['a method-less path as an endpoint', 'The base is `/v2/locations` here.', 'Endpoint'],
    ['a single PascalCase word without context', 'Abbreviations such as `Street` are expanded.', 'any'],
    ['plain lower-case words in code', 'Pass `limit` and `cursor`.', 'any'],
  ])('skips %s', (_, text, forbidden) => {
    const facts = extractEntities(text);
    const [type, pattern] = forbidden.split(':');
    const hits = facts.entities.filter(
      (entity) =>
        (type === 'any' || entity.type === type) &&
        (!pattern || new RegExp(`^(${pattern})$`).test(entity.name)),
    );
    expect(hits.map(({ type: kind, name }) => `${kind}:${name}`)).toEqual([]);
  });

  it('types one name once per document: an error code anywhere is an error code everywhere', () => {
    const text = 'Retry on `CARRIER_UNAVAILABLE`.\n\nThe API returns `503 CARRIER_UNAVAILABLE` when down.';
    const facts = extractEntities(text);
    expect(names(facts, 'Identifier')).toEqual([]);
    expect(find(facts, 'ErrorCode', 'CARRIER_UNAVAILABLE')).toMatchObject({
      properties: { httpStatus: 503 },
      mentions: [
        { start: 10, end: 29 },
        { start: 54, end: 73 },
      ],
    });
  });

  it('keeps an event name and an error code of the same words apart', () => {
    const facts = extractEntities('Then 409 CARRIER_SUSPENDED; carrier.suspended webhooks were sent.');
    expect(find(facts, 'ErrorCode', 'CARRIER_SUSPENDED')).toBeDefined();
    expect(find(facts, 'Identifier', 'carrier.suspended')).toBeDefined();
  });

  it('takes a table row code as an error code only when it is the cell', () => {
    const text =
      '| Code | HTTP | Remedy |\n|---|---|---|\n| `RATE_CARD_OVERLAP` | 422 | Fix `rate_card_id` and retry. |\n';
    const facts = extractEntities(text);
    expect(names(facts, 'ErrorCode')).toEqual(['RATE_CARD_OVERLAP']);
    expect(names(facts, 'Identifier')).toEqual(['rate_card_id']);
  });

  it('does not count the document title as a concept', () => {
    const text = 'We follow the Mesh Convergence Study Procedure here.';
    expect(names(extractEntities(text), 'Concept')).toEqual(['Mesh Convergence Study Procedure']);
    expect(names(extractEntities(text, { title: 'Mesh Convergence Study Procedure' }), 'Concept')).toEqual(
      [],
    );
  });
});

describe('extractEntities: acronym definitions', () => {
  it('makes the long form before the acronym an alias, with the definition span', () => {
    const text =
      'A **partially observable Markov decision process** (POMDP) extends the MDP. A POMDP agent acts.';
    const pomdp = find(extractEntities(text), 'Acronym', 'POMDP')!;
    expect(pomdp.aliases).toEqual(['partially observable Markov decision process']);
    expect(text.slice(pomdp.definition!.start, pomdp.definition!.end)).toBe(
      'partially observable Markov decision process** (POMDP)',
    );
    expect(written(text, pomdp)).toEqual(['partially observable Markov decision process', 'POMDP', 'POMDP']);
  });

  it('reads the long form after the acronym and folds its plural', () => {
    const text = 'Belief updates for POMDPs (partially observable Markov decision processes) follow.';
    const pomdp = find(extractEntities(text), 'Acronym', 'POMDP')!;
    expect(pomdp.aliases).toEqual(['partially observable Markov decision processes']);
    expect(written(text, pomdp)).toEqual(['POMDPs', 'partially observable Markov decision processes']);
  });

  it('merges a capitalised long form written elsewhere into the acronym', () => {
    const text =
      'Large Eddy Simulation (LES) resolves eddies.\n\nLarge Eddy Simulation is costly, so LES runs long.';
    const facts = extractEntities(text);
    expect(names(facts, 'Concept')).toEqual([]);
    expect(written(text, find(facts, 'Acronym', 'LES')!)).toEqual([
      'Large Eddy Simulation',
      'LES',
      'Large Eddy Simulation',
      'LES',
    ]);
  });

  it.each([
    ['a chapter reference', 'In an MDP (Chapter 7) the agent sees the state.'],
    ['a measurement', 'It prints ZPL (203 dpi) labels.'],
    ['a person', 'The SRE (Dana Whitfield) was paged.'],
    ['letters that do not start words', 'Use LTL (Coastal Freightways) for pallets.'],
  ])('finds no long form in %s', (_, text) => {
    expect(extractEntities(text).entities.filter((entity) => entity.aliases)).toEqual([]);
  });
});

describe('extractEntities: fenced code', () => {
  it('skips code other than curl commands', () => {
    const text =
      '```ts\nconst createLocation = FOO_BAR; // LES and Northwind Freight\nawait post("/shipments");\n```\n';
    expect(extractEntities(text)).toEqual({ entities: [], relations: [] });
  });

  it('reads the method and path of a curl command, with concrete ids as parameters', () => {
    const text = [
      '```bash',
      'curl -s -X POST "$NWF/locations" \\',
      '  -H "Authorization: Bearer $KEY"',
      'curl -s "$NWF/shipments/shp_01J2K8W4T9QX/events" | jq .',
      'curl https://api.example.test/v2/carriers -d \'{"a": 1}\'',
      '```',
    ].join('\n');
    const facts = extractEntities(text);
    expect(names(facts, 'Endpoint')).toEqual([
      'POST /locations',
      'GET /shipments/{shipmentId}/events',
      'POST /carriers',
    ]);
    expect(written(text, find(facts, 'Endpoint', 'POST /locations')!)).toEqual(['POST "$NWF/locations']);
    expect(names(facts, 'Resource')).toEqual(['location', 'shipment', 'carrier']);
    expect(facts.relations.filter((relation) => relation.type === 'RESOURCE_HAS_ENDPOINT')).toHaveLength(3);
  });
});

describe('extractEntities: co-mention relations', () => {
  it('weights RELATED by the number of paragraphs two entities share', () => {
    const text = 'LES and RANS.\n\nLES again, with RANS.\n\nOnly LES here, with SGS.\n';
    const facts = extractEntities(text);
    expect(weightOf(facts, 'LES', 'RANS')).toBe(2);
    expect(weightOf(facts, 'LES', 'SGS')).toBe(1);
    expect(weightOf(facts, 'RANS', 'SGS')).toBeUndefined();
  });

  it('treats each table row as its own unit', () => {
    const text = '| Code | Note |\n|---|---|\n| `FOO_FAILED` | see LES |\n| `BAR_FAILED` | see RANS |\n';
    const facts = extractEntities(text);
    expect(weightOf(facts, 'FOO_FAILED', 'LES')).toBe(1);
    expect(weightOf(facts, 'FOO_FAILED', 'BAR_FAILED')).toBeUndefined();
  });

  it('does not relate an endpoint to the resource it was derived from', () => {
    const facts = extractEntities('Use `POST /locations` with LES.');
    expect(weightOf(facts, 'POST /locations', 'LES')).toBe(1);
    expect(weightOf(facts, 'POST /locations', 'location')).toBeUndefined();
    expect(facts.relations).toContainEqual({
      from: { type: 'Resource', name: 'location' },
      to: { type: 'Endpoint', name: 'POST /locations' },
      type: 'RESOURCE_HAS_ENDPOINT',
      weight: 1,
    });
  });

  it(`relates only the ${MAX_RELATED_PER_UNIT} most mentioned entities of a paragraph`, () => {
    const acronyms = Array.from({ length: 20 }, (_, index) => `QZ${String.fromCharCode(65 + index)}`);
    // The last one is the most mentioned, so it takes part although it comes last.
    const text = `We list ${acronyms.join(', ')}, and ${acronyms.at(-1)} twice: ${acronyms.at(-1)}.`;
    const facts = extractEntities(text);
    const related = facts.relations.filter((relation) => relation.type === 'RELATED');
    expect(related).toHaveLength((MAX_RELATED_PER_UNIT * (MAX_RELATED_PER_UNIT - 1)) / 2);
    const linked = new Set(related.flatMap((relation) => [relation.from.name, relation.to.name]));
    expect([...linked].sort()).toEqual([...acronyms.slice(0, 11), acronyms.at(-1)].sort());
  });
});

describe('extractEntities on the sample corpus', () => {
  it('finds the error codes of the error reference, and leaves fields named in remedies alone', () => {
    const facts = extractEntities(read('northwind-logistics/api/error-codes.md'));
    expect(names(facts, 'ErrorCode')).toEqual(
      expect.arrayContaining(['RATE_LIMITED', 'INVALID_ADDRESS', 'LOCATION_IN_USE', 'CARRIER_SUSPENDED']),
    );
    expect(names(facts, 'ErrorCode')).toHaveLength(25);
    expect(names(facts, 'Identifier')).toEqual(
      expect.arrayContaining(['carrier_id', 'request_id', 'Retry-After']),
    );
    expect(names(facts, 'Schema')).toEqual(expect.arrayContaining(['Error', 'ErrorDetail']));
    expect(weightOf(facts, 'BULK_LIMIT_EXCEEDED', 'POST /locations/bulk')).toBe(2);
  });

  it('finds LES and RANS, their defined neighbours and the group in the LES note', () => {
    const facts = extractEntities(read('expert-knowledge/les-initialisation-from-rans.md'));
    expect(names(facts, 'Acronym')).toEqual(expect.arrayContaining(['LES', 'RANS', 'SGS']));
    expect(find(facts, 'Acronym', 'SEM')?.aliases).toEqual(['synthetic eddy method']);
    expect(find(facts, 'Acronym', 'FTT')?.aliases).toEqual(['flow-through time']);
    expect(names(facts, 'Concept')).toEqual(
      expect.arrayContaining(['Aerothermal Methods Group', 'Ingrid Halvorsen']),
    );
    expect(weightOf(facts, 'LES', 'RANS')).toBeGreaterThan(5);
  });

  it('finds the endpoints of the getting-started guide, including those only in curl commands', () => {
    const facts = extractEntities(read('northwind-logistics/guides/getting-started.md'));
    expect(names(facts, 'Endpoint')).toEqual([
      'POST /locations',
      'POST /rates/quote',
      'POST /shipments',
      'GET /shipments/{shipmentId}/label',
      'GET /shipments/{shipmentId}/events',
      'POST /shipments/{shipmentId}/cancel',
      'POST /locations/bulk',
    ]);
    expect(names(facts, 'Concept')).toEqual(expect.arrayContaining(['Meridian Parcel', 'BlueLine Express']));
  });

  it('reads the plain-text incident timeline', () => {
    const facts = extractEntities(read('northwind-logistics/notes/incident-timeline-inc-2291.txt'));
    expect(names(facts, 'Identifier')).toEqual(
      expect.arrayContaining(['INC-2291', 'car_meridian', 'carrier.suspended', 'CarrierErrorRateHigh']),
    );
    expect(names(facts, 'ErrorCode')).toEqual(['CARRIER_UNAVAILABLE', 'CARRIER_SUSPENDED']);
    expect(names(facts, 'Acronym')).toEqual(['SEV1', 'ET', 'IC']);
    expect(names(facts, 'Concept')).toEqual(expect.arrayContaining(['Dana Whitfield', 'Black Friday']));
  });

  it('finds the textbook terms of the beliefs chapter', () => {
    const facts = extractEntities(read('textbook/decision-making-under-uncertainty/ch19-beliefs.md'));
    expect(find(facts, 'Acronym', 'POMDP')?.aliases).toEqual([
      'partially observable Markov decision process',
    ]);
    expect(find(facts, 'Acronym', 'UKF')?.aliases).toEqual(['unscented Kalman filter']);
    expect(names(facts, 'Concept')).toEqual(expect.arrayContaining(['particle filter', 'Kalman filter']));
    expect(
      facts.entities.some((entity) => /^(Algorithm|Equation|Example|Table|Figure)\b/.test(entity.name)),
    ).toBe(false);
  });

  it('keeps every mention and relation consistent over the whole corpus', () => {
    const files = readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter(
      (path) => /\.(md|txt)$/.test(path) && path !== 'README.md',
    );
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const text = read(file);
      const facts = extractEntities(text);
      const keys = new Set(facts.entities.map((entity) => entityKey(entity.type, entity.name)));
      expect(keys.size, file).toBe(facts.entities.length);
      for (const entity of facts.entities) {
        const spellings = new Set(
          [entity.name, ...(entity.aliases ?? [])].map((name) => entityKey(entity.type, name)),
        );
        const conceptSpellings = new Set(
          [entity.name, ...(entity.aliases ?? [])].map((name) => entityKey('Concept', name)),
        );
        for (const slice of written(text, entity)) {
          const matches =
            entity.type === 'Endpoint'
              ? slice.startsWith(entity.name.split(' ')[0]!) || slice.startsWith('curl')
              : spellings.has(entityKey(entity.type, slice)) ||
                conceptSpellings.has(entityKey('Concept', slice));
          expect(matches, `${file}: ${entity.type} ${entity.name} written as ${JSON.stringify(slice)}`).toBe(
            true,
          );
        }
      }
      for (const relation of facts.relations) {
        expect(keys.has(entityKey(relation.from.type, relation.from.name)), file).toBe(true);
        expect(keys.has(entityKey(relation.to.type, relation.to.name)), file).toBe(true);
        expect(entityKey(relation.from.type, relation.from.name)).not.toBe(
          entityKey(relation.to.type, relation.to.name),
        );
      }
    }
  });

  it('is deterministic', () => {
    const text = read('northwind-logistics/runbooks/rate-limit-incidents.md');
    const first = extractEntities(text);
    const second = extractEntities(`${text}`.slice(0));
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});

describe('OfflineEntityExtractor', () => {
  const input = {
    text: 'We follow the Mesh Convergence Study Procedure with LES.',
    title: 'Mesh Convergence Study Procedure',
    kind: 'markdown',
    sourcePath: 'expert-knowledge/mesh.md',
  };

  it('extracts with the document title', async () => {
    const extractor = new OfflineEntityExtractor();
    expect(extractor.name).toBe('offline');
    await expect(extractor.extract(input)).resolves.toEqual(
      extractEntities(input.text, { title: input.title }),
    );
    await expect(extractor.extract({ ...input, title: null })).resolves.toEqual(extractEntities(input.text));
  });

  it('rejects with ABORTED when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new OfflineEntityExtractor().extract(input, controller.signal)).rejects.toMatchObject({
      code: ErrorCode.ABORTED,
    });
  });
});
