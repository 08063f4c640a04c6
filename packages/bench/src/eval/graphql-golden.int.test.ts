import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, OpenAiChatLlm, type RagRuntime } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import {
  GraphqlAnswerer,
  LibraryAnswerer,
  LlmJudge,
  parseGoldenDataset,
  runGolden,
  writeGoldenReport,
} from './index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '@agentic-rag/core/testing';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { serviceWithAdmin } from '../../../../test/api.js';
import { createApi } from '@agentic-rag/api/server';

const DOCUMENTS = [
  {
    id: 'yard/dock.md',
    content:
      '# Dock assignments\n\nDock 7 is reserved for refrigerated trailers. Dock 2 takes oversized loads.\n',
  },
  {
    id: 'yard/gate.md',
    content:
      '# Gate hours\n\nGate 4 closes at 22:00 for customs checks. Drivers queue at Gate 3 after that.\n',
  },
  {
    id: 'yard/scales.md',
    content:
      '# Weighbridge\n\nThe weighbridge at the north entrance is calibrated every Monday by the yard team.\n',
  },
];

const GOLDEN = parseGoldenDataset(
  [
    {
      id: 'general-01',
      category: 'general',
      question: 'Which dock takes refrigerated trailers?',
      expected_sources: ['yard/dock.md'],
      expected_facts: ['Dock 7'],
    },
    {
      id: 'general-02',
      category: 'general',
      question: 'When does gate 4 close for customs checks?',
      expected_sources: ['yard/gate.md'],
      expected_facts: ['22:00', 'Gate 3 on Sundays'],
    },
    {
      id: 'out-of-corpus-01',
      category: 'out-of-corpus',
      question: 'How do I configure Kafka consumer groups for billing?',
      must_refuse: true,
    },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n'),
);

/**
 * `rag:eval --dataset` end to end: a real runtime on the test database, its answer cache, the API
 * over HTTP for --endpoint, and a judge model on a local chat server.
 */
describe('golden-set evaluation', () => {
  let runtime: RagRuntime;
  let endpoint: string;
  let apiKey: string;
  let judgeServer: ChatServer;
  let stop: () => Promise<void>;
  const ws = uniqueWorkspace('eval');

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      AGENTIC_RAG_CACHE: 'true',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql });
    await runtime.pipeline.ingestInline(ws, DOCUMENTS);
    const access = await serviceWithAdmin(runtime);
    apiKey = access.key;
    const api = await createApi(access.service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
    judgeServer = await startChatServer((_request, response) =>
      sendJson(
        response,
        200,
        chatCompletion({ content: '{"faithfulness": 0.9, "relevance": 0.75, "reason": "fine"}' }),
      ),
    );
    stop = async () => {
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      await judgeServer.close();
      await runtime.cache?.clear(ws);
      await dropWorkspace(runtime.sql, ws);
      await runtime.close();
      await sql.close();
    };
  });

  afterAll(async () => stop());

  it('scores a cold pass after emptying the cache, then measures the warm pass', async () => {
    // A cached answer from an earlier run must not make the first pass warm.
    await new LibraryAnswerer(runtime.orchestrator).answer(GOLDEN[0]!.question, ws, 10);
    const report = await runGolden({
      dataset: 'inline',
      entries: GOLDEN,
      answerer: new LibraryAnswerer(runtime.orchestrator),
      workspaceId: ws,
      k: 5,
      clearCache: async () => void (await runtime.cache!.clear(ws)),
    });
    const [dock, gate, kafka] = report.results;
    expect(report.results.map((result) => result.coldCached)).toEqual([false, false, false]);
    expect(dock).toMatchObject({
      hit: true,
      firstRelevantRank: 1,
      refused: false,
      answerRecall: 1,
      warmCached: true,
    });
    // One fact is in the corpus, the other is not: half the facts.
    expect(gate).toMatchObject({
      hit: true,
      factsFound: ['22:00'],
      factsMissing: ['Gate 3 on Sundays'],
      answerRecall: 0.5,
    });
    expect(kafka).toMatchObject({ mustRefuse: true, refused: true, refusalCorrect: true });
    expect(report.summary).toMatchObject({
      questions: 3,
      answerable: 2,
      hitRate: 1,
      mrr: 1,
      answerRecall: 0.75,
      refusal: { refusedWhenRequired: 1, required: 1, falseRefusals: 0, accuracy: 1 },
    });
    expect(report.summary.cache.warmMs!.p50).toBeLessThan(report.summary.cache.coldMs.p50);
    expect(Object.keys(report.summary.latency.stages)).toEqual(
      expect.arrayContaining(['plan', 'retrieve', 'synthesize']),
    );

    const directory = await mkdtemp(path.join(tmpdir(), 'golden-'));
    try {
      const files = await writeGoldenReport(report, directory);
      expect(JSON.parse(await readFile(files.json, 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
      expect(await readFile(files.markdown, 'utf8')).toContain('| general-02 | When does gate 4 close');
      expect(await readFile(files.svg, 'utf8')).toMatch(/^<svg[^>]*>/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('gets the same outcomes through the GraphQL endpoint as through the library', async () => {
    const library = await runGolden({
      dataset: 'inline',
      entries: GOLDEN,
      answerer: new LibraryAnswerer(runtime.orchestrator),
      workspaceId: ws,
      warmPass: false,
    });
    const remote = await runGolden({
      dataset: 'inline',
      entries: GOLDEN,
      answerer: new GraphqlAnswerer(endpoint, fetch, 60_000, apiKey),
      workspaceId: ws,
      warmPass: false,
    });
    expect(remote.answerer).toBe('graphql');
    const outcome = (report: typeof library) =>
      report.results.map(({ id, retrieved, citations, refused, answerRecall, answer }) => ({
        id,
        retrieved,
        citations,
        refused,
        answerRecall,
        answer,
      }));
    expect(outcome(remote)).toEqual(outcome(library));
  });

  it('searches the precision set with the key, as the library does', async () => {
    const precision = parseGoldenDataset(
      JSON.stringify({
        id: 'endpoint-01',
        category: 'endpoint',
        question: 'Which dock takes refrigerated trailers?',
        expected_sources: ['yard/dock.md'],
        expected_facts: ['Dock 7'],
        precision_set: true,
      }),
    );
    const options = { dataset: 'inline', entries: precision, workspaceId: ws, warmPass: false };
    const library = await runGolden({
      ...options,
      answerer: new LibraryAnswerer(runtime.orchestrator, runtime.retriever),
    });
    const remote = await runGolden({
      ...options,
      answerer: new GraphqlAnswerer(endpoint, fetch, 60_000, apiKey),
    });
    expect(library.summary.endpointPrecision.searchAt1).toBe(1);
    expect(remote.summary.endpointPrecision.searchAt1).toBe(1);
  });

  it.each([
    ['no key', undefined],
    ['a key the server does not know', 'rag_not-a-real-key'],
  ])('stops at the first question when the endpoint refuses %s', async (_name, key) => {
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      asked += 1;
      return fetch(input, init);
    };
    await expect(
      runGolden({
        dataset: 'inline',
        entries: GOLDEN,
        answerer: new GraphqlAnswerer(endpoint, counting, 60_000, key),
        workspaceId: ws,
        warmPass: false,
      }),
    ).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringMatching(/pass --api-key or set AGENTIC_RAG_API_KEY/),
    });
    expect(asked).toBe(1);
  });

  it('reports an endpoint that is down as a failed question, not a crash', async () => {
    const report = await runGolden({
      dataset: 'inline',
      entries: GOLDEN.slice(0, 1),
      answerer: new GraphqlAnswerer('http://127.0.0.1:1/graphql'),
      workspaceId: ws,
      warmPass: false,
    });
    expect(report.results[0]!.error).toMatch(/^\[UPSTREAM_UNAVAILABLE\] cannot reach/);
    expect(report.summary.hitRate).toBe(0);
  });

  it('asks the judge about answered questions only', async () => {
    judgeServer.requests.length = 0;
    const report = await runGolden({
      dataset: 'inline',
      entries: GOLDEN,
      answerer: new LibraryAnswerer(runtime.orchestrator),
      workspaceId: ws,
      warmPass: false,
      judge: new LlmJudge(new OpenAiChatLlm({ baseUrl: judgeServer.url, model: 'judge', maxRetries: 0 })),
    });
    expect(judgeServer.requests).toHaveLength(2);
    expect(judgeServer.requests[0]!.body?.response_format).toEqual({ type: 'json_object' });
    expect(report.results.map((result) => result.judge?.faithfulness ?? null)).toEqual([0.9, 0.9, null]);
    expect(report.summary.judge).toEqual({ faithfulness: 0.9, relevance: 0.75, judged: 2 });
  });
});
