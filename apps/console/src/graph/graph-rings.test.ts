import { describe, expect, it } from 'vitest';
import { assignSlots, ringSlots } from './graph-rings.js';

describe('ringSlots', () => {
  it('goes down the right side and up the left, at even heights', () => {
    expect(ringSlots(1)).toEqual([0]);
    expect(ringSlots(2)).toEqual([0, Math.PI]);
    const heights = ringSlots(6).map((angle) => Math.round(Math.sin(angle) * 1000) / 1000);
    expect(heights).toEqual([-0.667, 0, 0.667, 0.667, 0, -0.667]);
    expect(ringSlots(6).map((angle) => Math.sign(Math.round(Math.cos(angle) * 1000)))).toEqual([
      1, 1, 1, -1, -1, -1,
    ]);
  });
});

describe('assignSlots', () => {
  it('keeps the order round the ring and turns it to face the inner nodes linked to', () => {
    const slots = ringSlots(4);
    const inner = new Map([
      ['In:right', 0],
      ['In:left', Math.PI],
    ]);
    const neighbours = new Map([
      ['Out:a', ['In:left']],
      ['Out:b', ['In:left']],
      ['Out:c', ['In:right']],
      ['Out:d', []],
    ]);
    const angles = assignSlots(['Out:d', 'Out:c', 'Out:b', 'Out:a'], slots, inner, neighbours);
    const side = (id: string) => Math.sign(Math.round(Math.cos(angles.get(id) ?? 0) * 1000));
    expect([side('Out:a'), side('Out:b'), side('Out:c')]).toEqual([-1, -1, 1]);
    expect(new Set(angles.values()).size).toBe(4);
  });
});
