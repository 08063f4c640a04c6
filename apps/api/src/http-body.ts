import type { IncomingMessage } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLarge extends Error {}
export class MalformedBody extends Error {}

/** A request body as JSON (undefined when empty), at most 1 MiB; GraphQL and REST read bodies alike. */
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
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedBody();
  }
}
