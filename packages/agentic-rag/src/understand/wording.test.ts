import { describe, expect, it } from 'vitest';
import { detectAction, detectIntent, narrowings } from './intent.js';

describe('detectIntent', () => {
  it.each([
    ['What endpoints can I use to create a location?', { kind: 'endpoint', operationType: 'create' }],
    ['Which API call lists shipments?', { kind: 'endpoint', operationType: 'list' }],
    ['POST /shipments/{id}/cancel', { kind: 'endpoint' }],
    ['which operation removes a webhook', { kind: 'endpoint', operationType: 'delete' }],
    ['Which call changes the timezone of a location?', { kind: 'endpoint', operationType: 'update' }],
    ['How do I add a warehouse through the API?', { kind: 'endpoint', operationType: 'create' }],
    [
      'Upload a new rate card, replacing the old one. Which endpoint?',
      { kind: 'endpoint', operationType: 'update' },
    ],
    ['Which endpoint purchases a label?', { kind: 'endpoint', operationType: 'create' }],
    ['Which endpoint gives me a new token?', { kind: 'endpoint', operationType: 'create' }],
    ['What does the API return for a new shipment?', { kind: 'general' }],
    ['What fields does the Location schema have?', { kind: 'schema' }],
    ['Why does the API return 409?', { kind: 'error' }],
    ['How do we initialise LES from RANS?', { kind: 'general' }],
    // 001's own examples of schema and error questions.
    ['what fields does a user have', { kind: 'schema' }],
    ['user object structure', { kind: 'schema' }],
    ['data model', { kind: 'schema' }],
    ['error codes', { kind: 'error' }],
    ['failed request', { kind: 'error' }],
    ['exception handling', { kind: 'error' }],
  ])('%s', (query, expected) => {
    expect(detectIntent(query)).toEqual(expected);
  });
});

describe('narrowings', () => {
  it('goes from the operation type to the chunk type, keeping the caller’s filters', () => {
    expect(narrowings({ kind: 'endpoint', operationType: 'create' }, { sourcePrefix: 'api/' })).toEqual([
      { sourcePrefix: 'api/', chunk_type: 'endpoint', operation_type: 'create' },
      { sourcePrefix: 'api/', chunk_type: 'endpoint' },
    ]);
    expect(narrowings({ kind: 'error' }, {})).toEqual([{ chunk_type: 'errors' }]);
  });

  it('never overrides a chunk type the caller chose, and leaves general questions alone', () => {
    expect(narrowings({ kind: 'endpoint' }, { chunk_type: 'schema' })).toEqual([]);
    expect(narrowings({ kind: 'general' }, {})).toEqual([]);
  });
});

describe('detectAction', () => {
  it.each([
    ['How do I add a warehouse?', 'create', 'strong'],
    ['How do I set up a new store?', 'create', 'strong'],
    ['Can I import 300 stores?', 'create', 'strong'],
    ['How do I get rid of a returns centre?', 'delete', 'strong'],
    ['Void the label of this order', 'delete', 'strong'],
    ['How do I stop receiving notifications?', 'delete', 'strong'],
    ['I want to rename a drop-off point', 'update', 'strong'],
    ['Upload a new rate card, replacing the old one', 'update', 'strong'],
    ['Show me every location', 'list', 'weak'],
    ['Find all parcels sent this week', 'list', 'weak'],
    ['Look up the details of a specific warehouse', 'read', 'weak'],
    ['Download the label of a shipment', 'read', 'weak'],
    ['Which carriers are connected to my account?', 'list', 'weak'],
    // what the question rules out or describes as done is not what it asks for
    ['Check an address without creating a location', undefined, 'none'],
    ['How do I see which webhooks we have set up?', 'read', 'weak'],
  ])('%s → %s (%s)', (query, operationType, strength) => {
    const action = detectAction(query);
    expect(action.operationType).toBe(operationType);
    expect(action.strength).toBe(strength);
  });

  it.each([
    ['How can I create many locations in one request?', true],
    ['Register several warehouses at once', true],
    ['How many levels deep can a hierarchy be?', false],
    ['Create a location', false],
  ])('%s: many at once is %s', (query, bulk) => {
    expect(detectAction(query).bulk).toBe(bulk);
  });

  it.each([
    ['How do I remove a location?', true],
    ['Show me every location', true],
    ['Delete this shipment', true],
    ['What print darkness does the label supplier recommend?', false],
    ['What was the root cause of the label outage?', false],
    ['What values can a location type take?', false],
  ])('%s asks for something to be done: %s', (query, asks) => {
    expect(detectAction(query).asks).toBe(asks);
  });
});
