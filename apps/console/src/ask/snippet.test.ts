import { describe, expect, it } from 'vitest';
import { plainSnippet } from './snippet.js';

describe('plainSnippet', () => {
  it.each([
    ['The warranty lasts **forty-two months**.', 'The warranty lasts forty-two months.'],
    ['```json { "name": "Reno" }', '{ "name": "Reno" }'],
    ['## Cleaning\n\nWipe it with a `dry cloth`.', 'Cleaning Wipe it with a dry cloth.'],
    ['```\ncode\n```', 'code'],
    ['2 * 3 * 4 and snake__case__names stay', '2 * 3 * 4 and snake__case__names stay'],
  ])('reads %j as %j', (text, plain) => {
    expect(plainSnippet(text)).toBe(plain);
  });
});
