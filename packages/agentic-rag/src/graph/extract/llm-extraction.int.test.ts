import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../../test/backends.js';
import { loadConfig } from '../../config/index.js';
import type { Sql } from '../../db/index.js';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../../llm/index.js';
import { createRuntime, type RagRuntime } from '../../runtime/index.js';
import { createJsonLogger, metricsRegistry } from '../../telemetry/index.js';
import { BestEffortExtractor } from './best-effort.js';
import { CachingExtractor } from './caching.js';
import { LlmEntityExtractor } from './llm-extractor.js';

const GUIDE = {
  id: 'guides/rate-shopping.md',
  content: `# Rate shopping

Quote rates with \`POST /v2/rates/quote\`, then book with \`POST /v2/shipments\`.
The dimensional weight divisor is what carriers use to price bulky parcels.
`,
};

const REPLY = JSON.stringify({
  entities: [
    { name: 'dimensional weight divisor', type: 'Concept' },
    { name: 'bulky parcels', type: 'Concept' },
  ],
  relations: [{ from: 'dimensional weight divisor', to: 'bulky parcels', type: 'RELATED' }],
});

async function failures(code: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('agentic_rag_entity_extraction_failures_total')!.get();
  return metric.values.find((value) => value.labels.code === code)?.value ?? 0;
}

describe.each(testBackends())('LLM entity extraction through ingestion on $name', (backend) => {
  let chat: ChatServer;
  let sql: Sql;
  let runtime: RagRuntime | null = null;
  const workspaces: string[] = [];
  const lines: string[] = [];
  // The model name is part of the cache key: a fresh one per run keeps other runs' facts out.
  const model = `extract-${uniqueWorkspace('m')}`;

  beforeAll(async () => {
    chat = await startChatServer((_request, response) =>
      sendJson(response, 200, chatCompletion({ content: REPLY })),
    );
    sql = await backend.open();
  });
  afterAll(async () => {
    await chat.close();
    await sql.close();
  });
  beforeEach(() => {
    chat.requests.length = 0;
    lines.length = 0;
  });
  afterEach(async () => {
    for (const workspaceId of workspaces.splice(0)) await dropWorkspace(sql, workspaceId);
    await runtime?.close();
    runtime = null;
  });

  const open = async (baseUrl: string) => {
    const config = loadConfig({
      RAG_LLM: 'openai',
      RAG_LLM_BASE_URL: baseUrl,
      RAG_LLM_MODEL: model,
      RAG_LLM_MAX_RETRIES: '0',
      RAG_INGEST_LLM_ENTITIES: 'true',
      AGENTIC_RAG_CACHE: 'false',
    });
    const logger = createJsonLogger({ level: 'info', write: (line) => lines.push(line) });
    runtime = await createRuntime({ config, sql, logger });
    return runtime;
  };
  const workspace = () => {
    const id = uniqueWorkspace('llm-extract');
    workspaces.push(id);
    return id;
  };
  const ids = async (workspaceId: string) =>
    (await runtime!.graph.findEntities({ workspaceId })).map((entity) => entity.id).sort();

  it("adds the model's entities to the offline ones, and asks once per content", async () => {
    const { pipeline, graph } = await open(chat.url);
    const first = workspace();
    const summary = await pipeline.ingestInline(first, [GUIDE]);
    expect(summary.failures).toEqual([]);
    expect(chat.requests).toHaveLength(1);
    const found = await ids(first);
    expect(found).toEqual(
      expect.arrayContaining([
        'Concept:dimensional weight divisor',
        'Concept:bulky parcel',
        'Endpoint:POST /rates/quote',
        'Resource:rate',
        'DocPage:guides/rate-shopping.md',
      ]),
    );
    const related = await graph.neighbourhood({
      workspaceId: first,
      seeds: ['Concept:dimensional weight divisor'],
      hops: 1,
      relationTypes: ['RELATED'],
    });
    expect(related.entities.map((entity) => entity.id)).toContain('Concept:bulky parcel');

    // The same document again, elsewhere: the model's facts come from the cache.
    const second = workspace();
    await pipeline.ingestInline(second, [GUIDE]);
    expect(chat.requests).toHaveLength(1);
    expect(await ids(second)).toEqual(found);
  });

  it('ingests with the offline facts when the model is down, and says so with a code', async () => {
    const dead = await startChatServer();
    const deadUrl = dead.url;
    await dead.close();
    const before = await failures('LLM_UNAVAILABLE');
    const { pipeline } = await open(deadUrl);
    const workspaceId = workspace();
    const summary = await pipeline.ingestInline(workspaceId, [
      { ...GUIDE, content: `${GUIDE.content}\nDown today.\n` },
    ]);
    expect(summary.failures).toEqual([]);
    expect(summary.documents.added).toBe(1);
    const found = await ids(workspaceId);
    expect(found).toContain('Endpoint:POST /rates/quote');
    expect(found).toContain('DocPage:guides/rate-shopping.md');
    expect(found).not.toContain('Concept:dimensional weight divisor');
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        event: 'entity-extraction-failed',
        code: 'LLM_UNAVAILABLE',
        sourcePath: 'guides/rate-shopping.md',
        extractor: `llm-entities-v1:openai-compatible:${model}`,
      }),
    );
    expect(await failures('LLM_UNAVAILABLE')).toBe(before + 1);
  });

  it('does not remember a failure: the next extraction of the content asks the model', async () => {
    const dead = await startChatServer((_request, response) => sendJson(response, 503, { error: {} }));
    const input = {
      text: GUIDE.content,
      title: 'Rate shopping',
      kind: 'markdown',
      sourcePath: `${model}.md`,
    };
    const extractor = (url: string) =>
      new BestEffortExtractor(
        new CachingExtractor(
          new LlmEntityExtractor({ llm: new OpenAiChatLlm({ baseUrl: url, model, maxRetries: 0 }) }),
          sql,
        ),
      );
    expect(await extractor(dead.url).extract(input)).toEqual({ entities: [], relations: [] });
    await dead.close();
    const live = extractor(chat.url);
    expect(await live.isCached!(input)).toBe(false);
    expect((await live.extract(input)).entities.map((entity) => entity.name)).toContain('bulky parcels');
    expect(chat.requests).toHaveLength(1);
    expect(await live.isCached!(input)).toBe(true);
  });
});
