import { describe, expect, it } from 'vitest';
import { stem, toApiOperation, type ApiOperation } from './api-vocabulary.js';
import { detectAction } from './intent.js';
import { directObject, matchOperations } from './operation-match.js';

// A small spec's operation metadata as the OpenAPI loader writes it: the words come from here.
const tag = (name: string, description: string) => ({ tags: [name], tag_descriptions: [description] });
const PETS = tag('Pets', 'Animals in the shelter: dogs, cats and rabbits waiting for a home.');
const VISITS = tag('Visits', 'Appointments families book to meet an animal.');
const operation = (
  method: string,
  path: string,
  type: string,
  extra: Record<string, unknown>,
): ApiOperation =>
  toApiOperation(`shelter.yaml#paths${path}/${method}`, {
    chunk_type: 'endpoint',
    method,
    path,
    operation_type: type,
    ...extra,
  })!;
const OPERATIONS = [
  operation('GET', '/pets', 'list', { summary: 'List pets', operation_id: 'listPets', ...PETS }),
  operation('POST', '/pets', 'create', { summary: 'Admit a pet', operation_id: 'createPet', ...PETS }),
  operation('POST', '/pets/batch', 'create', {
    summary: 'Admit many pets',
    operation_id: 'createPets',
    ...PETS,
  }),
  operation('GET', '/pets/{petId}', 'read', { summary: 'Retrieve a pet', operation_id: 'getPet', ...PETS }),
  operation('PATCH', '/pets/{petId}', 'update', {
    summary: 'Update a pet',
    operation_id: 'updatePet',
    ...PETS,
  }),
  operation('DELETE', '/pets/{petId}', 'delete', {
    summary: 'Remove a pet',
    operation_id: 'deletePet',
    ...PETS,
  }),
  operation('POST', '/pets/{petId}/adopt', 'action', {
    summary: 'Adopt a pet',
    operation_id: 'adoptPet',
    action: 'adopt',
    ...PETS,
  }),
  operation('POST', '/visits', 'create', { summary: 'Book a visit', operation_id: 'bookVisit', ...VISITS }),
  operation('DELETE', '/visits/{visitId}', 'delete', {
    summary: 'Cancel a visit',
    operation_id: 'cancelVisit',
    ...VISITS,
  }),
];

const top = (question: string) =>
  matchOperations(OPERATIONS, question, detectAction(question)).ranked[0]?.operation;

describe('matchOperations', () => {
  it.each([
    // synonyms from the tag description, the action from the verb, collection or item path
    ['How do I add a new dog?', 'POST /pets'],
    ['Show me all the cats', 'GET /pets'],
    ['How can I look up one rabbit by its id?', 'GET /pets/{petId}'],
    ['I need to change the name of a cat', 'PATCH /pets/{petId}'],
    ['How do I get rid of a pet record?', 'DELETE /pets/{petId}'],
    // many at once, and an action sub-resource named by its own verb
    ['Can I register several animals in one request?', 'POST /pets/batch'],
    ['How does a family adopt a dog?', 'POST /pets/{petId}/adopt'],
    // the same verb on another resource: the object decides
    ['How do I cancel an appointment?', 'DELETE /visits/{visitId}'],
  ])('%s → %s', (question, expected) => {
    const best = top(question);
    expect(`${best?.method} ${best?.path}`).toBe(expected);
  });

  it.each([
    ['How do I remove a rabbit?', true],
    // a collection the spec has, asked for with "which" and no verb
    ['Which pets are waiting for a home?', true],
    ['Which colours do rabbits come in?', false],
    ['What do rabbits eat?', false],
    ['How do I configure the reverse proxy?', false],
  ])('%s is an API question here: %s', (question, aboutApi) => {
    expect(matchOperations(OPERATIONS, question, detectAction(question)).aboutApi).toBe(aboutApi);
  });

  it('finds nothing in a workspace with no spec', () => {
    expect(matchOperations([], 'How do I add a dog?', detectAction('How do I add a dog?'))).toEqual({
      ranked: [],
      aboutApi: false,
    });
  });
});

describe('stem', () => {
  it.each([
    ['voids', 'void'],
    ['void', 'void'],
    ['cancelled', 'cancel'],
    ['cancel', 'cancel'],
    ['warehouses', 'warehous'],
    ['warehouse', 'warehous'],
    ['creating', 'creat'],
    ['create', 'creat'],
    ['categories', 'category'],
    ['status', 'status'],
  ])('%s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });
});

describe('directObject', () => {
  it.each([
    ['How do I add a single new warehouse to my account?', ['add'], ['a', 'singl', 'new', 'warehous']],
    [
      'How do I get rid of a returns centre we closed?',
      ['get rid of'],
      ['a', 'return', 'centr', 'we', 'clos'],
    ],
    ['list all child locations of a regional hub', ['list', 'all'], ['all', 'child', 'location']],
    ['What do rabbits eat?', [], []],
  ])('%s → %j', (question, verbs, words) => {
    expect([...directObject(question, verbs)]).toEqual(words);
  });
});
