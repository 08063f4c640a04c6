import { describe, expect, it } from 'vitest';
import { narrowings } from './narrowings.js';

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
