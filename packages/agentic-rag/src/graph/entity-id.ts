import { ErrorCode, RagError } from '../errors/index.js';

/** `Endpoint:POST /locations` → type `Endpoint`, normalized name `POST /locations`. */
export function splitEntityId(id: string): { type: string; normalized: string } {
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) {
    throw new RagError(ErrorCode.INVALID_INPUT, `entity id "${id}" is not of the form Type:name`, {
      details: { id },
    });
  }
  return { type: id.slice(0, colon), normalized: id.slice(colon + 1) };
}
