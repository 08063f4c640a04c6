import { readFileSync } from 'node:fs';
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

// A spec of another domain than the sample one (a public library), with questions in plain words
// written before they were run: the rules for API questions must carry to a spec nobody tuned on.
const LIBRARY_API = fileURLToPath(new URL('./fixtures/library-api', import.meta.url));
const QUESTIONS = readFileSync(
  fileURLToPath(new URL('./fixtures/library-api/questions.jsonl', import.meta.url)),
  'utf8',
)
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; question: string; expected_source: string });

/** The share of questions whose first hit must be the asked-for operation (the target). */
const TARGET = 0.9;

describe.each(testBackends())('API questions in free wording over a second spec on $name', (backend) => {
  let sql: Sql;
  let retriever: HybridRetriever;
  const workspaceId = uniqueWorkspace('api-words');
  const firstHits = new Map<string, string | undefined>();

  beforeAll(async () => {
    sql = await backend.open();
    const embedder = new DeterministicEmbedder();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql),
      embedder,
      maxTokens: 400,
      overlapTokens: 40,
    });
    await pipeline.ingestSources({ workspaceId, sources: [LIBRARY_API] });
    retriever = createRetriever(loadConfig({}), sql, embedder);
    for (const { id, question } of QUESTIONS) {
      const result = await retriever.retrieve({ workspaceId, query: question, k: 5 });
      firstHits.set(id, result.hits[0]?.sourcePath);
    }
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
  });

  it(`puts the asked-for operation first for at least ${TARGET * 100}% of the questions`, () => {
    const misses = QUESTIONS.filter(({ id, expected_source }) => firstHits.get(id) !== expected_source).map(
      ({ question, expected_source }) =>
        `${question} → ${firstHits.get(QUESTIONS.find((entry) => entry.question === question)!.id)} (want ${expected_source})`,
    );
    expect(1 - misses.length / QUESTIONS.length, misses.join('\n')).toBeGreaterThanOrEqual(TARGET);
  });

  it.each([
    // an action verb with no "endpoint" in sight, and the item path for one
    [
      'How do I get rid of a book we no longer stock?',
      'library-api/openapi.yaml#paths/books/{bookId}/delete',
    ],
    // many at once goes to the batch operation, one at a time does not
    [
      'How can I book many rooms at once for an event?',
      'library-api/openapi.yaml#paths/rooms/bookings/batch/post',
    ],
    // one item by its id is the item path, not the collection
    ['Look up a card holder by their id.', 'library-api/openapi.yaml#paths/members/{memberId}/get'],
  ])('%s', async (question, expected) => {
    const result = await retriever.retrieve({ workspaceId, query: question, k: 5 });
    expect(result.intent.kind).toBe('endpoint');
    expect(result.hits[0]!.sourcePath).toBe(expected);
  });

  it('leaves a question that asks for a fact, not an action, to the plain search', async () => {
    const result = await retriever.retrieve({ workspaceId, query: 'What is a library card?', k: 5 });
    expect(result.intent).toMatchObject({ kind: 'general', narrowedTo: null });
  });
});
