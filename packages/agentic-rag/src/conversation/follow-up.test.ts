import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { rewriteFollowUp, subjectOf, type ConversationTurn } from './follow-up.js';

const turn = (standaloneQuery: string): ConversationTurn => ({
  question: standaloneQuery,
  standaloneQuery,
  answer: 'an answer',
});

describe('subjectOf', () => {
  it.each([
    ['How do I create a location?', 'a location'],
    ['What is a webhook endpoint?', 'a webhook endpoint'],
    ['How does pagination work?', 'pagination'],
    ['Can I cancel a shipment after pickup?', 'a shipment after pickup'],
    ['How do I?', null],
    ['How do I create a location with a very long list of many extra words here?', null],
  ])('%j is about %j', (query, subject) => {
    expect(subjectOf(query)).toBe(subject);
  });
});

describe('rewriteFollowUp', () => {
  it.each([
    ['How do I create a location?', 'and how do I delete it?', 'how do I delete a location?'],
    ['How do I create a location?', 'What fields does it need?', 'What fields does a location need?'],
    [
      'How do I create a location?',
      'and what are its required fields?',
      "what are the location's required fields?",
    ],
    ['How do I create a location?', 'what about shipments?', 'How do I create shipments?'],
    ['How do I create a location?', 'And for carriers?', 'How do I create carriers?'],
    ['How do I create a location?', 'and deleting?', 'deleting a location?'],
    ['How do I create a location?', 'and how do I update?', 'how do I update a location?'],
    ['How do I create a location?', 'What does that return?', 'What does a location return?'],
    // Standalone questions are kept as asked.
    ['How do I create a location?', 'How are webhooks signed?', 'How are webhooks signed?'],
    ['How do I create a location?', 'What is the rate limit?', 'What is the rate limit?'],
  ])('after %j, %j becomes %j', (previous, question, query) => {
    const result = rewriteFollowUp(question, [turn(previous)]);
    expect(result.query).toBe(query);
    expect(result.rewritten).toBe(query !== question);
  });

  it('reads the latest turn, whose standalone query carries the subject down a chain', () => {
    const history = [
      turn('How do I create a location?'),
      { ...turn('how do I delete a location?'), question: 'and how do I delete it?' },
    ];
    expect(rewriteFollowUp('and how do I update it?', history).query).toBe('how do I update a location?');
  });

  it('keeps the question without a history', () => {
    expect(rewriteFollowUp('and how do I delete it?', [])).toEqual({
      query: 'and how do I delete it?',
      rewritten: false,
      subject: null,
    });
  });
});

describe('the dev conversation set (eval/agentic-rag/dev-conversations.jsonl)', () => {
  const file = new URL('../../../../eval/agentic-rag/dev-conversations.jsonl', import.meta.url);
  const conversations = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; turns: string[]; standalone: string[] });

  it.each(conversations.map((conversation) => [conversation.id, conversation] as const))(
    '%s: every turn is made to stand alone as written there',
    (_id, conversation) => {
      const history: ConversationTurn[] = [];
      conversation.turns.forEach((question, index) => {
        const { query } = rewriteFollowUp(question, history);
        expect(query).toBe(conversation.standalone[index]);
        history.push({ question, standaloneQuery: query, answer: 'an answer' });
      });
    },
  );
});
