/**
 * How deep a request body's JSON may nest. Nothing the service takes nests past a dozen levels; a
 * body nesting thousands deep overflows the stack of whatever walks it recursively afterwards
 * (GraphQL's variable coercion, validators), so every transport refuses it before parsing.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`: one pass over the text, string
 * contents skipped, no parse (a parse is what must not see it).
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
