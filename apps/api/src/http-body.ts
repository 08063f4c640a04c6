import type { IncomingMessage } from 'node:http';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '@agentic-rag/core';

const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLarge extends Error {}
export class MalformedBody extends Error {
  constructor(message = 'request body is not valid JSON') {
    super(message);
  }
}

export const TOO_DEEP = `request body nests deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * A request body as JSON (undefined when empty), at most 1 MiB and MAX_JSON_DEPTH levels deep;
 * GraphQL and REST read bodies alike.
 */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  if (nestsDeeperThan(text)) throw new MalformedBody(TOO_DEEP);
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedBody();
  }
}
