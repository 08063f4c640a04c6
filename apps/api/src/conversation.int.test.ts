import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, startStreamingApi, type StreamingApi } from './test-streaming.js';

const ANSWER = `mutation Answer($input: RagAnswerInput!) {
  ragAnswer(input: $input) {
    answer refused
    citations { index sourceId title }
    conversation { id turn standaloneQuery rewritten rewriter }
    debug { rewrittenQuery }
  }
}`;

/**
 * Conversations on the real server and database: a follow-up is rewritten against the earlier
 * turn (offline: the deterministic rewriter), and a conversation is found only by the key and
 * workspace that started it, for a bounded number of turns and time.
 */
describe('ragAnswer conversations', () => {
  let api: StreamingApi;
  let ws: string;
  let other: string;

  beforeAll(async () => {
    api = await startStreamingApi({ workspaces: 2, env: { AGENTIC_RAG_CONVERSATION_TURNS: '2' } });
    [ws, other] = api.workspaces as [string, string];
  }, 180_000);
  afterAll(async () => api?.close());

  const ask = async (input: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.graphql(ANSWER, { input: { workspaceId: ws, debug: true, ...input } }, headers);
  const start = async () => {
    const first = await ask({ query: 'How do I create a location?', startConversation: true });
    expect(first.errors).toBeUndefined();
    return first.data.ragAnswer.conversation.id as string;
  };
  const codeOf = (reply: Awaited<ReturnType<typeof ask>>) => reply.errors?.[0]?.extensions?.code;

  it('rewrites "and how do I delete it?" against the create question and finds the delete operation', async () => {
    const first = await ask({ query: 'How do I create a location?', startConversation: true });
    expect(first.errors).toBeUndefined();
    const started = first.data.ragAnswer;
    expect(started.conversation).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      turn: 1,
      standaloneQuery: 'How do I create a location?',
      rewritten: false,
      rewriter: 'none',
    });
    expect(started.citations[0].sourceId).toBe('northwind-logistics/api/openapi.yaml#paths/locations/post');

    const followUp = await ask({ query: 'and how do I delete it?', conversationId: started.conversation.id });
    expect(followUp.errors).toBeUndefined();
    const answer = followUp.data.ragAnswer;
    expect(answer.conversation).toEqual({
      id: started.conversation.id,
      turn: 2,
      standaloneQuery: 'how do I delete a location?',
      rewritten: true,
      rewriter: 'rules',
    });
    // The trace of the run shows the query it searched with.
    expect(answer.debug.rewrittenQuery).toBe('how do I delete a location?');
    expect(answer.refused).toBe(false);
    expect(answer.answer).toContain('DELETE /locations/{locationId}');
    expect(answer.citations[0].sourceId).toBe(
      'northwind-logistics/api/openapi.yaml#paths/locations/{locationId}/delete',
    );

    // The same words without the conversation are about nothing in particular: another resource's delete.
    const alone = (await ask({ query: 'and how do I delete it?' })).data.ragAnswer;
    expect(alone.conversation).toBeNull();
    expect(alone.debug.rewrittenQuery).toBe('and how do I delete it?');
    expect(alone.citations.map((citation: { sourceId: string }) => citation.sourceId)).not.toContain(
      'northwind-logistics/api/openapi.yaml#paths/locations/{locationId}/delete',
    );
  });

  it('is NOT_FOUND from another workspace, another key, or when it never existed', async () => {
    const id = await start();
    // The admin key reaches both workspaces; the conversation is still only the first one's.
    expect(
      codeOf(await ask({ query: 'and how do I delete it?', conversationId: id, workspaceId: other })),
    ).toBe('NOT_FOUND');
    const { key } = await api.service.keys.create({
      workspaceId: ws,
      role: 'reader',
      label: 'other key',
      createdBy: 'test',
    });
    const otherKey = await ask(
      { query: 'and how do I delete it?', conversationId: id },
      { authorization: `Bearer ${key}` },
    );
    expect(codeOf(otherKey)).toBe('NOT_FOUND');
    expect(otherKey.errors?.[0]?.message).toBe(`conversation "${id}" does not exist`);
    for (const missing of ['00000000-0000-4000-8000-000000000000', 'not-a-conversation']) {
      expect(codeOf(await ask({ query: 'and how do I delete it?', conversationId: missing }))).toBe(
        'NOT_FOUND',
      );
    }
    // Neither refusal recorded a turn: the owner's conversation is where it was.
    const owner = (await ask({ query: 'and how do I delete it?', conversationId: id })).data.ragAnswer;
    expect(owner.conversation.turn).toBe(2);
  });

  it('refuses to continue and start a conversation at once', async () => {
    const reply = await ask({
      query: 'and how do I delete it?',
      conversationId: await start(),
      startConversation: true,
    });
    expect(codeOf(reply)).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toMatch(/not both/);
  });

  it('keeps the last AGENTIC_RAG_CONVERSATION_TURNS turns and carries the subject down the chain', async () => {
    const id = await start();
    await ask({ query: 'and how do I delete it?', conversationId: id });
    const third = (await ask({ query: 'what about shipments?', conversationId: id })).data.ragAnswer;
    expect(third.conversation).toMatchObject({
      turn: 3,
      standaloneQuery: 'how do I delete shipments?',
      rewriter: 'rules',
    });
    const { rows } = await api.runtime.sql.query<{ turn: number }>(
      'SELECT turn FROM rag_conversation_turns WHERE conversation_id = $1 ORDER BY turn',
      [id],
    );
    expect(rows.map((row) => row.turn)).toEqual([2, 3]);
  });

  it('expires a conversation AGENTIC_RAG_CONVERSATION_TTL_SECONDS after its last turn', async () => {
    const id = await start();
    const { rows } = await api.runtime.sql.query<{ seconds: number }>(
      `SELECT round(extract(epoch FROM expires_at - updated_at))::integer AS seconds FROM rag_conversations WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([{ seconds: 86_400 }]);
    // An hour past its expiry, as the clock would have it.
    await api.runtime.sql.query(
      `UPDATE rag_conversations SET expires_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    expect(codeOf(await ask({ query: 'and how do I delete it?', conversationId: id }))).toBe('NOT_FOUND');
  });

  it('continues a conversation over the stream: the final event carries it', async () => {
    const id = await start();
    const response = await api.stream({
      workspaceId: ws,
      query: 'and how do I delete it?',
      conversationId: id,
    });
    expect(response.status).toBe(200);
    const events = await readSse(response);
    const final = events.at(-1)!;
    expect(final.type).toBe('final');
    expect(final.answer.conversation).toEqual({
      id,
      turn: 2,
      standaloneQuery: 'how do I delete a location?',
      rewritten: true,
      rewriter: 'rules',
    });
    // Another workspace's id is refused before the stream starts.
    const refused = await api.stream({
      workspaceId: other,
      query: 'and how do I delete it?',
      conversationId: id,
    });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error_code: 'NOT_FOUND', status_code: 404 });
  });
});
