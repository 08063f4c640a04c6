import { describe, expect, it } from 'vitest';
import { detectIntent } from './wording.js';

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
    // The Knowledge Retriever design's own examples of schema and error questions (docs/search.md).
    ['what fields does a user have', { kind: 'schema' }],
    ['user object structure', { kind: 'schema' }],
    ['data model', { kind: 'schema' }],
    ['error codes', { kind: 'error' }],
    ['failed request', { kind: 'error' }],
    ['exception handling', { kind: 'error' }],
  ])('%s', (query, expected) => {
    expect(detectIntent(query)).toMatchObject(expected);
  });
});

describe('the word that made a schema or error question', () => {
  it('is kept, so a spec that names a resource by it can overrule the wording', () => {
    expect(detectIntent('pull all the fields of a single ticket')).toEqual({
      kind: 'schema',
      trigger: 'fields',
    });
    expect(detectIntent('Why does the API return 409?')).toEqual({ kind: 'error', trigger: '409' });
  });
});
