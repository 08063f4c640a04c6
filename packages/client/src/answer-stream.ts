import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { AgenticRagError } from './errors.js';
import type { RagAnswerStreamEvent } from './types.js';

/**
 * The events of a `POST /answer/stream` response body, parsed as Server-Sent Events. Ends after
 * `final`; an `error` event is thrown as an `AgenticRagError` with its code. Breaking out of the
 * loop cancels the body, which closes the connection: the server then aborts the run.
 */
export async function* readAnswerStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<RagAnswerStreamEvent, void, undefined> {
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => parsed.push(message) });
  // TextDecoder in streaming mode rather than a TextDecoderStream: the DOM lib's typing of the latter
  // does not fit pipeThrough (TypeScript 5.9), and the web console type-checks this file with it.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (parsed.length > 0) {
        const event = JSON.parse(parsed.shift()!.data) as RagAnswerStreamEvent;
        if (event.type === 'error') throw new AgenticRagError(event.code, event.message);
        yield event;
        if (event.type === 'final') return;
      }
    }
    throw new AgenticRagError('BAD_RESPONSE', 'the answer stream ended without a final event');
  } finally {
    await reader.cancel().catch(() => {});
  }
}
