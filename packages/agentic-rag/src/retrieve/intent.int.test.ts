import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore } from '../store/index.js';
import { createRetriever } from './create-retriever.js';
import type { HybridRetriever } from './retriever.js';

const API_DOCS = fileURLToPath(
  new URL('../../../../simulated_ingestion/northwind-logistics/api', import.meta.url),
);

describe.each(testBackends())('intent-narrowed retrieval over the sample API docs on $name', (backend) => {
  let sql: Sql;
  let retriever: HybridRetriever;
  const workspaceId = uniqueWorkspace('intent');

  beforeAll(async () => {
    sql = await backend.open();
    const embedder = new DeterministicEmbedder();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql),
      embedder,
      maxTokens: 400,
      overlapTokens: 40,
    });
    await pipeline.ingestSources({ workspaceId, sources: [API_DOCS] });
    retriever = createRetriever(loadConfig({}), sql, embedder);
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
  });

  it('answers "What endpoints can I use to create a location?" with POST /locations first', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'What endpoints can I use to create a location?',
      k: 5,
    });
    expect(result.hits[0]!.sourcePath).toBe('api/openapi.yaml#paths/locations/post');
    expect(result.intent).toMatchObject({ kind: 'endpoint', operationType: 'create' });
    // The operation match ranks by action (create) itself: no narrowing by operation type, which
    // one misread verb would empty.
    expect(result.intent.narrowedTo).toEqual({ chunk_type: 'endpoint' });
  });

  it('falls back to the unnarrowed search when the narrowing finds too little', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'which endpoint verifies the webhook HMAC signature header?',
      k: 5,
      filters: { sourcePrefix: 'api/webhooks.md' },
    });
    expect(result.intent.narrowedTo).toBeNull();
    expect(result.hits[0]!.sourcePath).toBe('api/webhooks.md');
  });

  it('can be turned off', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'What endpoints can I use to create a location?',
      intent: false,
    });
    expect(result.intent).toMatchObject({ kind: 'general', source: 'none', narrowedTo: null });
  });
});
