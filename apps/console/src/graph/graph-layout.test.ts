import { describe, expect, it } from 'vitest';
import { layoutGraph, type Box, type LayoutNode } from './graph-layout.js';

const NAMES = [
  'Zephyr widget',
  'warranty',
  'POST /locations/{locationId}/items',
  'Northwind freight forwarding',
  'Claim',
  'customer service department',
  'ISO 9001',
];

/** A start and rings of `counts[hop]` nodes, each linked to a node of the ring inside it. */
function rings(counts: number[]) {
  const nodes: LayoutNode[] = [];
  const edges: Array<{ from: string; to: string }> = [];
  counts.forEach((count, hop) => {
    const inner = nodes.filter((node) => node.hop === hop - 1);
    for (let index = 0; index < count; index++) {
      const id = `Thing:${hop}-${index}`;
      nodes.push({ id, name: NAMES[nodes.length % NAMES.length] ?? '', hop, strength: 1 });
      const parent = inner[index % Math.max(inner.length, 1)];
      if (parent) edges.push({ from: parent.id, to: id });
    }
  });
  return layoutGraph(nodes, edges);
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('layoutGraph', () => {
  it.each([[[1, 3]], [[1, 8]], [[1, 20]], [[1, 8, 15]], [[2, 6]], [[1, 10, 25]]])(
    'rings %j: labels outward, none over another or over a node, all inside the view box',
    (counts) => {
      const layout = rings(counts);
      const { x, y, width, height } = layout.viewBox;
      for (const at of layout.nodes) {
        expect(at.label.anchor).toBe(at.x < -0.5 ? 'end' : at.x > 0.5 ? 'start' : 'middle');
        for (const box of [at.label.box, { left: at.x, right: at.x, top: at.y, bottom: at.y }]) {
          expect(box.left).toBeGreaterThanOrEqual(x);
          expect(box.top).toBeGreaterThanOrEqual(y);
          expect(box.right).toBeLessThanOrEqual(x + width);
          expect(box.bottom).toBeLessThanOrEqual(y + height);
        }
      }
      const shown = layout.nodes.filter((at) => at.label.shown === 'always');
      for (const [index, at] of shown.entries()) {
        for (const other of shown.slice(index + 1))
          expect(overlaps(at.label.box, other.label.box)).toBe(false);
        for (const node of layout.nodes) {
          const dot = { left: node.x - 5, right: node.x + 5, top: node.y - 5, bottom: node.y + 5 };
          expect(overlaps(at.label.box, dot)).toBe(false);
        }
      }
    },
  );

  it('labels every node of a graph that is not crowded, and only hops 0 and 1 past 30 nodes', () => {
    expect(rings([1, 8, 15]).nodes.every((at) => at.label.shown === 'always')).toBe(true);
    const crowded = rings([1, 10, 25]);
    expect(crowded.nodes.filter((at) => at.label.shown === 'always').map((at) => at.node.hop)).toEqual(
      Array.from({ length: 11 }, (_, index) => (index === 0 ? 0 : 1)),
    );
    expect(crowded.nodes.filter((at) => at.node.hop === 2).every((at) => at.label.shown === 'hover')).toBe(
      true,
    );
  });

  it('wraps labels into lines and draws a bigger canvas for more nodes', () => {
    const small = rings([1, 3]);
    expect(small.nodes.find((at) => at.node.id === 'Thing:1-1')?.label.lines).toEqual([
      'POST /locations/',
      '{locationId}/items',
    ]);
    const area = (counts: number[]) => rings(counts).viewBox.width * rings(counts).viewBox.height;
    expect(area([1, 8])).toBeGreaterThan(area([1, 3]));
    expect(area([1, 20])).toBeGreaterThan(area([1, 8]));
    expect(area([1, 8, 15])).toBeGreaterThan(area([1, 20]));
  });

  it('puts a node on the side of the inner node it is linked to', () => {
    const layout = layoutGraph(
      [
        { id: 'A:start', name: 'start', hop: 0, strength: 1 },
        { id: 'A:east', name: 'east', hop: 1, strength: 1 },
        { id: 'A:west', name: 'west', hop: 1, strength: 1 },
        { id: 'A:of west', name: 'of west', hop: 2, strength: 1 },
        { id: 'A:of east', name: 'of east', hop: 2, strength: 1 },
      ],
      [
        { from: 'A:start', to: 'A:east' },
        { from: 'A:start', to: 'A:west' },
        { from: 'A:west', to: 'A:of west' },
        { from: 'A:east', to: 'A:of east' },
      ],
    );
    const x = (id: string) => layout.nodes.find((at) => at.node.id === id)?.x ?? 0;
    expect(x('A:start')).toBe(0);
    expect(Math.sign(x('A:of west'))).toBe(Math.sign(x('A:west')));
    expect(Math.sign(x('A:of east'))).toBe(Math.sign(x('A:east')));
    expect(Math.sign(x('A:east'))).toBe(-Math.sign(x('A:west')));
  });

  it('draws nothing for no nodes', () => {
    expect(layoutGraph([], [])).toEqual({ nodes: [], viewBox: { x: 0, y: 0, width: 0, height: 0 } });
  });
});
