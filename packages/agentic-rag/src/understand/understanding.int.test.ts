import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { createRetriever } from '../retrieve/index.js';
import { CorpusStore } from '../store/index.js';

/**
 * The understanding of a question against what a workspace holds: the same words are an API
 * question in a workspace that describes an API and a general one in a textbook, a typo is
 * corrected to a word the workspace uses, and the operation the question names comes first.
 */
const sample = (folder: string) =>
  fileURLToPath(new URL(`../../../../simulated_ingestion/${folder}`, import.meta.url));

describe('understand (the sample API and textbook)', () => {
  let sql: Sql;
  const api = uniqueWorkspace('und-api');
  const book = uniqueWorkspace('und-book');
  const understand = (workspaceId: string, question: string) =>
    createRetriever(loadConfig({}), sql, new DeterministicEmbedder()).understand(workspaceId, question);

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql),
      embedder: new DeterministicEmbedder(),
      maxTokens: 400,
      overlapTokens: 40,
    });
    await pipeline.ingestSources({ workspaceId: api, sources: [sample('northwind-logistics/api')] });
    await pipeline.ingestSources({
      workspaceId: book,
      sources: [sample('textbook/decision-making-under-uncertainty')],
    });
  });

  afterAll(async () => {
    await dropWorkspace(sql, api);
    await dropWorkspace(sql, book);
    await sql.close();
  });

  it.each([
    ['How do I create a location?', 'create', 'POST /locations'],
    // The spec's Locations tag says "Warehouses, stores, drop-off points".
    ['How do I add a new warehouse?', 'create', 'POST /locations'],
    ['how do i stop a shipment', 'delete', 'POST /shipments/{shipmentId}/cancel'],
  ])('"%s" asks the API to %s: %s first', async (question, action, operation) => {
    const understood = await understand(api, question);
    expect(understood.intent).toMatchObject({ kind: 'endpoint', source: 'evidence' });
    expect(understood.intent.confidence).toBeGreaterThanOrEqual(0.5);
    expect(understood.action.class).toBe(action);
    expect(understood.operations[0]?.operation.name).toBe(operation);
  });

  // Words a JavaScript object answers by itself: a lookup table keyed by words must not see them.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'constructors'])(
    'searches for "%s" like any other word, in both workspaces and every mode',
    async (word) => {
      const retriever = createRetriever(loadConfig({}), sql, new DeterministicEmbedder());
      for (const workspaceId of [api, book]) {
        for (const channels of [undefined, ['lexical'] as const]) {
          const result = await retriever.retrieve({
            workspaceId,
            query: `What does the ${word} do?`,
            k: 5,
            ...(channels ? { channels: [...channels] } : {}),
          });
          expect(result.hits.length).toBeGreaterThanOrEqual(0);
        }
      }
    },
  );

  it('reads the wording where it says what it wants: a shape, an error set', async () => {
    expect((await understand(api, 'What fields does the Location schema have?')).intent).toMatchObject({
      kind: 'schema',
      source: 'wording',
    });
    expect((await understand(api, 'Which error codes can creating a shipment return?')).intent).toMatchObject(
      {
        kind: 'error',
        source: 'wording',
      },
    );
  });

  it('corrects a typo to the word the workspace uses, and ranks on the corrected words', async () => {
    const understood = await understand(api, 'how do i cancel a shipmnet');
    expect(understood.corrections).toEqual([expect.objectContaining({ from: 'shipmnet', to: 'shipment' })]);
    expect(understood.operations[0]?.operation.name).toBe('POST /shipments/{shipmentId}/cancel');
  });

  it.each([
    // "cancel" is read as the action, not as context: nothing else vouches for the correction.
    ['api', 'how do i cancel a shipmnet', false],
    ['api', 'list warehuoses and their adress', true],
    ['api', 'trackng a shipemnt label', true],
    ['book', 'what is a beleif state in a pomdp plicy', true],
    ['book', 'explain value iteraton convergance', true],
  ] as const)(
    'counts typo evidence in the lexical segments as the chunks hold it (%s: "%s")',
    async (workspace, question, vouched) => {
      const workspaceId = workspace === 'api' ? api : book;
      const { corrections } = await understand(workspaceId, question);
      expect(corrections.length).toBeGreaterThan(0);
      for (const correction of corrections) {
        // Chunks holding the correction and another word of the question the corpus knows; or,
        // when no other word can vouch for it, its document frequency.
        const recount = await sql.query<{ together: number; df: number }>(
          `WITH context AS (
             SELECT array_agg(t.lexeme) AS lexemes FROM unnest(to_tsvector('english', $3)) AS t
             WHERE EXISTS (SELECT 1 FROM rag_vocabulary v WHERE v.workspace_id = $1 AND v.lexeme = t.lexeme)
           ),
           own AS (
             SELECT (SELECT array_agg(f.lexeme) FROM rag_chunk_fields(d.title, c.tsv) AS f) AS lexemes
             FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
             WHERE c.workspace_id = $1
           ),
           holding AS (
             SELECT own.lexemes FROM own
             WHERE (SELECT t.lexeme FROM unnest(to_tsvector('english', $2)) AS t LIMIT 1) = ANY(own.lexemes)
           )
           SELECT (SELECT count(*) FROM holding, context WHERE holding.lexemes && context.lexemes)::int AS together,
                  (SELECT count(*) FROM holding)::int AS df`,
          [workspaceId, correction.to, question.replace(correction.from, '')],
        );
        const { together, df } = recount.rows[0]!;
        expect({ correction: correction.to, evidence: correction.evidence }).toEqual({
          correction: correction.to,
          evidence: vouched ? together : df,
        });
        expect(correction.evidence).toBeGreaterThan(0);
      }
    },
  );

  it.each([
    // Written whole somewhere: a snake_case field, a dotted member, a type's path of names.
    ['what does parent_location_id hold?', []],
    ['when is ShipmentEvent.code set?', []],
    ['is Buffer.from used for the signature?', []],
    // Never written whole, though the corpus knows every part.
    ['what does parent_shipment_id hold?', ['parent_shipment_id']],
    ['how is location.cursor_id paged?', ['location.cursor_id']],
    // Several in one question are looked for together; the missing ones come back in order.
    [
      'is parent_shipment_id like parent_location_id or location.cursor_id?',
      ['parent_shipment_id', 'location.cursor_id'],
    ],
  ])('finds the names of "%s" the corpus never writes: %j', async (question, missing) => {
    expect((await understand(api, question)).unknownNames).toEqual(missing);
  });

  it('reads the same kind of question as general where no API is described', async () => {
    const create = await understand(book, 'how do I create a belief?');
    expect(create.action.class).toBe('create');
    expect(create.intent).toMatchObject({ kind: 'general', reasons: ['the workspace describes no API'] });
    expect(create.operations).toEqual([]);
    const entity = await understand(book, 'What is Algorithm 3.2?');
    expect(entity.entity).toEqual({ type: 'Algorithm', number: '3.2' });
    expect(entity.intent.kind).toBe('general');
  });

  it('never asks the API about a numbered entity, even in an API workspace', async () => {
    const understood = await understand(api, 'How do I create Algorithm 3.2?');
    expect(understood.intent).toMatchObject({
      kind: 'general',
      reasons: ['the question names a numbered entity'],
    });
  });
});
