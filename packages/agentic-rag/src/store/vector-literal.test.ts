import { describe, expect, it } from 'vitest';
import { vectorLiteral } from './write-batch.js';

describe('vectorLiteral', () => {
  it('writes each value as float4 to eight significant digits, trailing zeros dropped', () => {
    expect(vectorLiteral([0, -0, 1, -2, 0.5, 0.1, 1 / 3, 123456789])).toBe(
      '[0,0,1,-2,0.5,0.1,0.33333334,1.2345679e+8]',
    );
  });

  it('keeps an exponent that ends in zero (1e-10 is not 0.1)', () => {
    expect(vectorLiteral([4.6586728e-10, -2.5e-20, 1.5e20])).toBe('[4.6586729e-10,-2.4999999e-20,1.5e+20]');
  });

  it('round-trips through float4 within a unit in the eighth digit', () => {
    const values = Array.from({ length: 200 }, (_, index) => Math.sin(index + 1) * 10 ** ((index % 13) - 6));
    const written = vectorLiteral(values).slice(1, -1).split(',').map(Number);
    written.forEach((value, index) => {
      const expected = Math.fround(values[index]!);
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-7);
    });
  });
});
