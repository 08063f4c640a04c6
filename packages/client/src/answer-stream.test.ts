import { describe, expect, it } from 'vitest';
import { readAnswerStream } from './answer-stream.js';
import { AgenticRagError } from './errors.js';
import type { RagAnswerStreamEvent } from './types.js';

/** A response body that arrives in these byte pieces. */
function body(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

const sse = (event: object) => `event: message\ndata: ${JSON.stringify(event)}\n\n`;

async function read(stream: ReadableStream<Uint8Array>): Promise<RagAnswerStreamEvent[]> {
  const events: RagAnswerStreamEvent[] = [];
  for await (const event of readAnswerStream(stream)) events.push(event);
  return events;
}

describe('readAnswerStream', () => {
  it('decodes a character whose bytes arrive in two pieces', async () => {
    const bytes = new TextEncoder().encode(
      sse({ type: 'delta', text: 'Grüße' }) + sse({ type: 'final', answer: { answer: 'Grüße' } }),
    );
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "ü"
    const events = await read(body([bytes.slice(0, split), bytes.slice(split)]));
    expect(events.map((event) => event.type)).toEqual(['delta', 'final']);
    expect(events[0]).toEqual({ type: 'delta', text: 'Grüße' });
  });

  it('throws an error event as an AgenticRagError with its code', async () => {
    const error = { type: 'error', code: 'RATE_LIMITED', message: 'slow down', retryable: true };
    const failure = await read(body([new TextEncoder().encode(sse(error))])).catch(
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(AgenticRagError);
    expect((failure as AgenticRagError).code).toBe('RATE_LIMITED');
  });

  it('says so when the stream ends without a final event', async () => {
    const failure = await read(body([new TextEncoder().encode(sse({ type: 'delta', text: 'half' }))])).catch(
      (caught: unknown) => caught,
    );
    expect((failure as AgenticRagError).code).toBe('BAD_RESPONSE');
  });
});
