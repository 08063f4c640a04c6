import { describe, expect, it } from 'vitest';
import { askedAction } from './actions.js';
import { toOperation, type ApiOperation } from './catalogue.js';
import { OperationFieldIndex } from './field-index.js';
import { byScore, coversObject, rankOperations } from './rank.js';
import { lightStem, operationTerm } from './terms.js';

/** An operation document's metadata as the OpenAPI loader writes it. */
function operation(method: string, path: string, extra: Record<string, unknown> = {}): ApiOperation {
  const found = toOperation(`spec.yaml#paths${path}/${method.toLowerCase()}`, { method, path, ...extra });
  if (!found) throw new Error(`not an operation: ${method} ${path}`);
  return found;
}

const words = (question: string) => question.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];

/** The operations ranked for a question, by the same index terms the service uses. */
function rank(operations: ApiOperation[], question: string): string[] {
  const index = new OperationFieldIndex(operations, { term: operationTerm });
  const terms = [...new Set(index.terms(question))].map((term) => ({ term, weight: 1 }));
  return rankOperations(index, { terms, action: askedAction(question, words(question)) }).map(
    (ranked) => ranked.operation.name,
  );
}

describe('toOperation', () => {
  it('reads the loader metadata: segments without the base path, target without the action or bulk segment', () => {
    const cancel = operation('POST', '/rest/api/3/shipments/{id}/cancel', {
      path_segments: ['shipments', 'cancel'],
      action: 'cancel',
      operation_type: 'action',
      operation_id: 'cancelShipment',
    });
    expect(cancel.segments).toEqual(['shipments', 'cancel']);
    expect(cancel.fields.target).toBe('shipments');
    expect(cancel.fields.operationId).toBe('cancel shipment');
    expect(cancel.item).toBe(false);

    const bulk = operation('POST', '/v2/locations/bulk', { operation_type: 'create' });
    // Without path_segments (older documents) the version segment is left out by pattern.
    expect(bulk.segments).toEqual(['locations', 'bulk']);
    expect(bulk.fields.target).toBe('locations');
    expect(bulk.bulk).toBe(true);

    expect(operation('GET', '/locations/{locationId}').item).toBe(true);
    expect(toOperation('spec.yaml#components/schemas/Location', { title: 'Location' })).toBeUndefined();
  });

  it('splits run-together names into their parts as well', () => {
    const worklog = operation('GET', '/issue/{id}/worklog', { operation_id: 'getIssueWorklog' });
    expect(worklog.fields.path.split(' ')).toEqual(expect.arrayContaining(['worklog', 'work', 'log']));
  });
});

describe('OperationFieldIndex (BM25F)', () => {
  const summaryOp = operation('POST', '/a', { summary: 'Archive a project' });
  const descriptionOp = operation('POST', '/b', {
    summary: 'Update a project',
    description: 'Can archive it.',
  });
  const index = new OperationFieldIndex([summaryOp, descriptionOp], { term: operationTerm });

  it('weighs a word in the summary above the same word in the description', () => {
    const [inSummary, inDescription] = index.score([{ term: operationTerm('archive'), weight: 1 }]);
    expect(inSummary).toBeGreaterThan(inDescription!);
    expect(inDescription).toBeGreaterThan(0);
  });

  it('counts a rarer term for more, and nothing for a term no operation holds', () => {
    expect(index.idf(operationTerm('update'))).toBeGreaterThan(index.idf(operationTerm('project')));
    expect(index.documentFrequency(operationTerm('project'))).toBe(2);
    expect([...index.score([{ term: 'zebra', weight: 1 }])]).toEqual([0, 0]);
  });

  it('scales a term by its weight (an expansion counts for less than a word typed)', () => {
    const full = index.score([{ term: operationTerm('archive'), weight: 1 }])[0]!;
    const half = index.score([{ term: operationTerm('archive'), weight: 0.5 }])[0]!;
    expect(half).toBeCloseTo(full / 2, 10);
  });

  it('says which fields hold a term', () => {
    const term = operationTerm('archive');
    expect(index.has(0, term, 'summary')).toBe(true);
    expect(index.has(1, term, 'summary')).toBe(false);
    expect(index.fieldsOf(1, term)).toEqual(['description']);
  });

  it('saturates repetition: four mentions score well under four times one', () => {
    const once = operation('POST', '/c', { description: 'archive the board and its cards now' });
    const four = operation('POST', '/d', { description: 'archive archive archive archive the board' });
    const [one, many] = new OperationFieldIndex([once, four], { term: operationTerm }).score([
      { term: operationTerm('archive'), weight: 1 },
    ]);
    expect(many).toBeGreaterThan(one!);
    expect(many! / one!).toBeLessThan(2);
  });
});

describe('rankOperations', () => {
  const repository = [
    operation('DELETE', '/repos/{owner}/{repo}', {
      operation_type: 'delete',
      summary: 'Delete a repository',
    }),
    operation('DELETE', '/repos/{owner}/{repo}/labels/{name}', {
      operation_type: 'delete',
      summary: 'Delete a label',
      description: 'Deletes a label from a repository.',
    }),
    operation('GET', '/repos/{owner}/{repo}', { operation_type: 'read', summary: 'Get a repository' }),
  ];

  it('puts the operation that acts on the named thing, with the asked action, first', () => {
    expect(rank(repository, 'how do I delete a repository')[0]).toBe('DELETE /repos/{owner}/{repo}');
    expect(rank(repository, 'delete a label from a repository')[0]).toBe(
      'DELETE /repos/{owner}/{repo}/labels/{name}',
    );
    expect(rank(repository, 'show me a repository')[0]).toBe('GET /repos/{owner}/{repo}');
  });

  it('reads a verb of the action segment\'s family as naming it ("stop" for /cancel)', () => {
    const shipments = [
      operation('POST', '/shipments/{id}/cancel', {
        operation_type: 'action',
        action: 'cancel',
        path_segments: ['shipments', 'cancel'],
        summary: 'Cancel a shipment',
      }),
      operation('PATCH', '/shipments/{id}', { operation_type: 'update', summary: 'Update a shipment' }),
    ];
    expect(rank(shipments, 'how do I stop a shipment')[0]).toBe('POST /shipments/{id}/cancel');
  });

  it('finds the operation by the words its tag uses for the resource', () => {
    const locations = [
      operation('POST', '/locations', {
        operation_type: 'create',
        summary: 'Create a location',
        tags: ['Locations'],
        tag_descriptions: ['Warehouses, stores, drop-off points'],
      }),
      operation('POST', '/carriers', {
        operation_type: 'create',
        summary: 'Create a carrier',
        tags: ['Carriers'],
      }),
    ];
    expect(rank(locations, 'how do I add a new warehouse')[0]).toBe('POST /locations');
  });

  it('breaks ties by the shorter path, then the name, never by spec order', () => {
    const short = { score: 1, operation: operation('GET', '/a') };
    const long = { score: 1, operation: operation('GET', '/a/b') };
    expect([long, short].sort(byScore)[0]).toBe(short);
    const b = { score: 1, operation: operation('GET', '/b') };
    expect([b, short].sort(byScore)[0]).toBe(short);
  });
});

describe('coversObject', () => {
  const carriers = operation('GET', '/carriers', { summary: 'List carriers' });
  const pickups = operation('POST', '/pickups', { summary: 'Schedule a carrier pickup' });
  const index = new OperationFieldIndex([carriers, pickups], { term: operationTerm });

  it('asks the head of the object, its last word, of the operation', () => {
    expect(coversObject(index, pickups, ['carrier', 'pickup'])).toBe(true);
    expect(coversObject(index, carriers, ['carrier', 'pickup'])).toBe(false);
    expect(coversObject(index, carriers, [])).toBe(false);
  });

  it('takes an alternative form of the head', () => {
    expect(coversObject(index, carriers, ['shipping', 'company'], ['carriers'])).toBe(true);
  });
});

describe('operationTerm', () => {
  it.each([
    ['deletes', 'delete'],
    ['repositories', 'repository'],
    ['Webhooks', 'webhook'],
    ['cancelled', 'cancel'],
  ])('%s → %s', (word, term) => {
    expect(operationTerm(word)).toBe(term);
  });

  it('does not merge words a stemmer would (organization, organ)', () => {
    expect(operationTerm('organization')).not.toBe(operationTerm('organ'));
  });

  it('lightStem strips inflections only', () => {
    expect(lightStem('voids')).toBe('void');
    expect(lightStem('status')).toBe('status');
    expect(lightStem('batches')).toBe('batch');
  });
});
