import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, PgliteSql } from '@agentic-rag/core';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { loadBeirDataset } from './beir-dataset.js';
import { runBeir } from './run-beir.js';

const FIXTURE = fileURLToPath(new URL('../../../../eval/fixtures/beir-sample/', import.meta.url));

describe('BEIR evaluation', () => {
  let runtime: RagRuntime;
  let root: string;

  beforeAll(async () => {
    runtime = await createRuntime({ config: loadConfig({}), sql: await PgliteSql.open() });
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-beir-'));
    await mkdir(path.join(root, 'tiny', 'qrels'), { recursive: true });
    const corpus = [
      {
        _id: 'd1',
        title: 'Creating locations',
        text: 'Send POST /locations with an address to create a warehouse location.',
      },
      {
        // An id may hold `#` itself, like a manual's page#section.
        _id: 'shipments#cancel',
        title: 'Cancelling shipments',
        text: 'Cancel a shipment before pickup with POST /shipments/{id}/cancel.',
      },
      {
        _id: 'd3',
        title: 'Belief updates',
        text: 'A POMDP agent updates its belief after every observation.',
      },
    ];
    await writeFile(
      path.join(root, 'tiny', 'corpus.jsonl'),
      corpus.map((record) => JSON.stringify(record)).join('\n'),
    );
    await writeFile(
      path.join(root, 'tiny', 'queries.jsonl'),
      [
        { _id: 'q1', text: 'how do I create a location' },
        { _id: 'q2', text: 'cancel shipment' },
        { _id: 'q3', text: 'a query nobody judged' },
      ]
        .map((record) => JSON.stringify(record))
        .join('\n'),
    );
    await writeFile(
      path.join(root, 'tiny', 'qrels', 'test.tsv'),
      'query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\tshipments#cancel\t1\n',
    );
  });
  afterAll(async () => {
    await runtime.close();
    await runtime.sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('scores every judged query in each mode and skips unjudged ones', async () => {
    const dataset = await loadBeirDataset(path.join(root, 'tiny'));
    expect(dataset.queries.map((query) => query.id)).toEqual(['q1', 'q2']);
    const report = await runBeir({
      dataset,
      workspaceId: 'tiny',
      pipeline: runtime.pipeline,
      retriever: runtime.retriever,
      // The graph channel alone only finds chunks of entities a query names: not these.
      modes: ['dense', 'lexical', 'hybrid-no-graph', 'hybrid'],
    });
    expect(report.ingest.documents.added).toBe(3);
    expect(report.modes.map((mode) => mode.mode)).toEqual(['dense', 'lexical', 'hybrid-no-graph', 'hybrid']);
    for (const mode of report.modes) {
      expect(mode.queries).toBe(2);
      // Two queries, each with its one relevant document ranked first by every mode.
      expect([mode.ndcgAt10, mode.recallAt100, mode.mrrAt10]).toEqual([1, 1, 1]);
      expect(mode.latencyMs.p95).toBeGreaterThanOrEqual(mode.latencyMs.p50);
    }
    const again = await runBeir({
      dataset,
      workspaceId: 'tiny',
      pipeline: runtime.pipeline,
      retriever: runtime.retriever,
      modes: ['lexical'],
    });
    expect(again.ingest.documents.unchanged).toBe(3);
  });

  it('says which file is missing when the directory is not a BEIR dataset', async () => {
    await expect(loadBeirDataset(root)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('corpus.jsonl is missing'),
    });
  });

  it('keeps the sample fixture consistent: unique ids, every judgment points at a passage and a query', async () => {
    const lines = (file: string) =>
      readFileSync(path.join(FIXTURE, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { _id: string; text: string });
    const corpus = lines('corpus.jsonl');
    const queries = lines('queries.jsonl');
    const corpusIds = new Set(corpus.map((record) => record._id));
    const queryIds = new Set(queries.map((record) => record._id));
    expect([corpusIds.size, queryIds.size]).toEqual([corpus.length, queries.length]);
    const dataset = await loadBeirDataset(FIXTURE);
    expect(dataset.queries).toHaveLength(queries.length);
    for (const [queryId, judgments] of dataset.qrels) {
      expect(queryIds.has(queryId), queryId).toBe(true);
      for (const corpusId of judgments.keys()) expect(corpusIds.has(corpusId), corpusId).toBe(true);
      expect([...judgments.values()], queryId).toContain(2);
    }
  });

  it.runIf(existsSync(path.join(FIXTURE, 'corpus.jsonl')))(
    'beats each channel alone with the hybrid on the hand-judged sample fixture',
    async () => {
      const report = await runBeir({
        dataset: await loadBeirDataset(FIXTURE),
        workspaceId: 'beir-sample',
        pipeline: runtime.pipeline,
        retriever: runtime.retriever,
      });
      const byMode = Object.fromEntries(report.modes.map((mode) => [mode.mode, mode]));
      expect(report.queries).toBeGreaterThanOrEqual(40);
      expect(byMode.hybrid!.ndcgAt10).toBeGreaterThan(byMode.lexical!.ndcgAt10);
      expect(byMode.hybrid!.ndcgAt10).toBeGreaterThan(byMode.dense!.ndcgAt10);
    },
  );
});
