import { describe, expect, it } from 'vitest';
import { cl100kTokenizer } from './tokenizer.js';

describe('cl100kTokenizer', () => {
  const tokenizer = cl100kTokenizer();

  it('is the cl100k_base encoding, shared by every caller', () => {
    expect(tokenizer.name).toBe('cl100k_base');
    expect(cl100kTokenizer()).toBe(tokenizer);
  });

  // Counts from cl100k_base (the encoding of text-embedding-3-* and gpt-4); they set chunk budgets.
  it.each([
    ['', 0],
    ['a', 1],
    [' ', 1],
    ['\n\n', 1],
    ['hello world', 2],
    ['Hello, world!', 4],
    ['tiktoken is great!', 6],
    ['indivisible', 3],
    ['The quick brown fox jumps over the lazy dog.', 10],
    ['POST /locations creates a location', 6],
    ['你好世界', 5],
    ['🚀', 3],
    ['a'.repeat(1000), 125],
  ])('counts %j as %i tokens', (text, expected) => {
    expect(tokenizer.count(text)).toBe(expected);
  });

  it.each([
    ['<|endoftext|>', 7],
    ['before <|endoftext|> after', 8],
    ['<|fim_prefix|>', 7],
  ])(
    'counts the special-token spelling %j as plain text (%i tokens) instead of throwing',
    (text, expected) => {
      // As a control token "<|endoftext|>" would be 1 token; js-tiktoken throws on it by default.
      expect(() => tokenizer.count(text)).not.toThrow();
      expect(tokenizer.count(text)).toBe(expected);
    },
  );

  it('counts sentences joined at a space as the sum of their counts', () => {
    const left = 'Carriers pick up parcels twice a day.';
    const right = ' Late pickups are escalated.';
    const joined = tokenizer.count(left + right);
    expect(joined).toBe(tokenizer.count(left) + tokenizer.count(right));
    expect(joined).toBe(14);
  });
});
