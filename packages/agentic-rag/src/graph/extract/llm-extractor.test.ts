import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../../llm/index.js';
import { entityKey } from '../resolve.js';
import { LlmEntityExtractor } from './llm-extractor.js';
import { entityExtractionPrompt, parseExtractionReply } from './llm-prompt.js';
import type { ExtractionInput } from './offline.js';

const GUIDE: ExtractionInput = {
  sourcePath: 'guides/rate-shopping.md',
  title: 'Rate shopping',
  kind: 'markdown',
  text: `# Rate shopping

Quote rates with \`POST /v2/rates/quote\`, then book the cheapest service level.
The dimensional weight divisor is what carriers use to price bulky parcels.
Algorithm 3.2 is a textbook procedure, not an API.
`,
};

const REPLY = {
  entities: [
    { name: 'dimensional weight divisor', type: 'Concept', aliases: [] },
    { name: 'POST /rates/quote', type: 'Endpoint' },
    // typed by the offline extractor as a Resource: the model's Concept must not split it
    { name: 'rates', type: 'Concept' },
    { name: 'Algorithm 3.2', type: 'Concept' },
    { name: 'hyperdrive', type: 'Product' },
    { name: 'quote rates', type: 'Endpoint' },
  ],
  relations: [
    { from: 'dimensional weight divisor', to: 'rates', type: 'RELATED' },
    { from: 'hyperdrive', to: 'rates', type: 'RELATED' },
  ],
};

describe('parseExtractionReply', () => {
  it.each([
    ['a fenced object', '```json\n{"entities":[]}\n```', { entities: [], relations: [] }],
    ['not JSON', '{entities: [}', /^not JSON/],
    ['a wrong type', '{"entities":[{"name":"x","type":"Planet"}]}', /^entities\.0\.type:/],
    ['a missing list', '{"relations":[]}', /^entities:/],
  ])('%s', (_label, reply, expected) => {
    const parsed = parseExtractionReply(reply);
    if (expected instanceof RegExp) expect(parsed).toMatch(expected);
    else expect(parsed).toEqual(expected);
  });
});

describe('entityExtractionPrompt', () => {
  it('asks for JSON with the allowed types and carries the document', () => {
    const [system, user] = entityExtractionPrompt(GUIDE, GUIDE.text);
    expect(system!.content).toContain('Reply with one JSON object');
    expect(system!.content).toContain('Entity types: Concept, Acronym,');
    expect(user!.content).toBe(`Document: Rate shopping (markdown)\n---\n${GUIDE.text}`);
  });
});

describe('LlmEntityExtractor against a chat server', () => {
  let server: ChatServer;
  /** Replies served in order; the last one repeats. */
  let replies: Array<string | number> = [];
  beforeAll(async () => {
    server = await startChatServer((_request, response) => {
      const next = replies.length > 1 ? replies.shift()! : replies[0]!;
      if (typeof next === 'number') sendJson(response, next, { error: { message: 'unavailable' } });
      else sendJson(response, 200, chatCompletion({ content: next }));
    });
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const extractor = (jsonRetries?: number) =>
    new LlmEntityExtractor({
      llm: new OpenAiChatLlm({ baseUrl: server.url, model: 'm', maxRetries: 1, retryBaseDelayMs: 1 }),
      ...(jsonRetries === undefined ? {} : { jsonRetries }),
    });

  it("keeps what the text supports, in the offline extractors' types", async () => {
    replies = [JSON.stringify(REPLY)];
    const facts = await extractor().extract(GUIDE);
    const ids = facts.entities.map((entity) => entityKey(entity.type, entity.name)).sort();
    // "Algorithm 3.2" is the numbered extractor's, "hyperdrive" is not in the text, "quote rates"
    // is no endpoint: all dropped. "rates" is the Resource the offline extractor found.
    expect(ids).toEqual([
      'Concept:dimensional weight divisor',
      'Endpoint:POST /rates/quote',
      'Resource:rate',
    ]);
    const divisor = facts.entities.find((entity) => entity.name === 'dimensional weight divisor')!;
    expect(divisor.mentions).toEqual([
      { start: GUIDE.text.indexOf('dimensional'), end: GUIDE.text.indexOf(' is what') },
    ]);
    expect(facts.relations).toEqual([
      {
        from: { type: 'Concept', name: 'dimensional weight divisor' },
        to: { type: 'Resource', name: 'rate' },
        type: 'RELATED',
        weight: 1,
      },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body?.response_format).toEqual({ type: 'json_object' });
  });

  it('asks again after a reply that is not JSON, saying what was wrong', async () => {
    replies = ['Sure! Here are the entities: dimensional weight divisor', JSON.stringify(REPLY)];
    const facts = await extractor().extract(GUIDE);
    expect(facts.entities.map((entity) => entity.name)).toContain('dimensional weight divisor');
    expect(server.requests).toHaveLength(2);
    const retry = server.requests[1]!.body!.messages!;
    expect(retry.at(-2)).toEqual({
      role: 'assistant',
      content: 'Sure! Here are the entities: dimensional weight divisor',
    });
    expect(retry.at(-1)!.content).toMatch(/^That reply was not valid: not JSON/);
  });

  it('gives up with LLM_OUTPUT_INVALID when the reply stays invalid', async () => {
    replies = ['{"entities": "none"}'];
    await expect(extractor(2).extract(GUIDE)).rejects.toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect(server.requests).toHaveLength(3);
  });

  it('lets the adapter retry a transient failure, and reports an outage as LLM_UNAVAILABLE', async () => {
    replies = [503, JSON.stringify(REPLY)];
    expect((await extractor().extract(GUIDE)).entities.length).toBe(3);
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    replies = [503];
    await expect(extractor().extract(GUIDE)).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
  });

  it('never asks about an OpenAPI spec: its loader states its facts', async () => {
    replies = [JSON.stringify(REPLY)];
    const facts = await extractor().extract({ ...GUIDE, kind: 'openapi' });
    expect(facts).toEqual({ entities: [], relations: [] });
    expect(server.requests).toHaveLength(0);
  });
});
