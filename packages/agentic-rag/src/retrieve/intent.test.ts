import { describe, expect, it } from 'vitest';
import { detectIntent, narrowings } from './intent.js';

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
