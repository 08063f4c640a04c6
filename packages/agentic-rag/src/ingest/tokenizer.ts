import { Tiktoken } from 'js-tiktoken/lite';
import cl100k_base from 'js-tiktoken/ranks/cl100k_base';

/** Counts tokens the way the models that read our chunks do. */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

let shared: Tokenizer | undefined;

/**
 * cl100k_base: the encoding of the OpenAI embedding and chat models; close enough for the
 * budgets of other models too. The ranks ship inside js-tiktoken, so this works offline.
 */
export function cl100kTokenizer(): Tokenizer {
  if (!shared) {
    const encoding = new Tiktoken(cl100k_base);
    shared = {
      name: 'cl100k_base',
      // disallowedSpecial empty: a document that contains "<|endoftext|>" is text, not a control token.
      count: (text) => (text.length === 0 ? 0 : encoding.encode(text, [], []).length),
    };
  }
  return shared;
}
