import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../llm/index.js';
import { LlmQuestionWriter, parseQuestions } from './llm-question-writer.js';

describe('parseQuestions', () => {
  it('reads one question per line, without list markers, up to the limit', () => {
    expect(
      parseQuestions(
        '1. How do I add a bay?\n- Which error means the bay is taken?\n\nQ3: Who owns bays?\n* extra?',
        3,
      ),
    ).toEqual(['How do I add a bay?', 'Which error means the bay is taken?', 'Who owns bays?']);
  });

  it('drops blank and overlong lines', () => {
    expect(parseQuestions(`\n   \n${'x'.repeat(201)}\nShort?`, 5)).toEqual(['Short?']);
  });
});

describe('LlmQuestionWriter against a chat server', () => {
  let server: ChatServer;
  beforeAll(async () => {
    server = await startChatServer((request, response) => {
      const passage = request.body?.messages?.at(-1)?.content ?? '';
      if (passage.includes('forbidden')) {
        sendJson(response, 400, { error: { message: 'content filter' } });
        return;
      }
      if (passage.includes('down')) {
        sendJson(response, 503, { error: { message: 'overloaded' } });
        return;
      }
      sendJson(response, 200, chatCompletion({ content: `What is ${passage.split(' ')[0]}?\nWhy?` }));
    });
  });
  afterAll(async () => server.close());

  it('asks once per text and keeps the input order', async () => {
    const writer = new LlmQuestionWriter({
      llm: new OpenAiChatLlm({ baseUrl: server.url, model: 'm', maxRetries: 0 }),
      questions: 2,
      concurrency: 2,
    });
    const texts = ['alpha one', 'beta two', 'gamma three'];
    expect(await writer.write(texts)).toEqual([
      ['What is alpha?', 'Why?'],
      ['What is beta?', 'Why?'],
      ['What is gamma?', 'Why?'],
    ]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.body?.messages?.[0]?.content).toContain('Write 2 different questions');
    expect(writer.name).toBe('hyde-questions-v1:2:openai-compatible:m');
  });

  it('gives a chunk the model refuses no questions, and stops every lane when the server fails', async () => {
    const writer = new LlmQuestionWriter({
      llm: new OpenAiChatLlm({ baseUrl: server.url, model: 'm', maxRetries: 0 }),
      questions: 2,
      concurrency: 1,
    });
    expect(await writer.write(['alpha one', 'forbidden words', 'gamma three'])).toEqual([
      ['What is alpha?', 'Why?'],
      [],
      ['What is gamma?', 'Why?'],
    ]);
    server.requests.length = 0;
    await expect(writer.write(['down now', 'beta two', 'gamma three'])).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
    });
    expect(server.requests).toHaveLength(1);
  });
});
