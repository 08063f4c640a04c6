import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GraphLists } from './GraphLists.js';
import { GraphSearchResults } from './GraphSearchResults.js';
import { GraphView, type GraphEdge, type GraphNode } from './GraphView.js';

const node = (id: string, name: string, hop: number): GraphNode => ({
  id,
  type: id.split(':')[0] ?? '',
  name,
  hop,
  strength: 1,
});
const nodes = [
  node('Product:zephyr widget', 'Zephyr widget', 0),
  node('Concept:warranty', 'warranty', 1),
  node('Endpoint:POST /locations/{locationId}/items', 'POST /locations/{locationId}/items', 1),
  node('Concept:forty-two months', 'forty-two months', 2),
];
const edges: GraphEdge[] = [
  { from: 'Product:zephyr widget', to: 'Concept:warranty', type: 'RELATED', weight: 1 },
  {
    from: 'Product:zephyr widget',
    to: 'Endpoint:POST /locations/{locationId}/items',
    type: 'RESOURCE_HAS_ENDPOINT',
    weight: 1,
  },
  { from: 'Concept:warranty', to: 'Concept:forty-two months', type: 'PART_OF', weight: 1 },
  { from: 'Concept:warranty', to: 'Schema:Claim', type: 'REFERENCES', weight: 1 },
];

describe('GraphView', () => {
  const html = renderToStaticMarkup(createElement(GraphView, { nodes, edges }));

  it('is one image named by what it counts', () => {
    expect(html).toMatch(/^<svg [^>]*role="img" aria-label="Graph of 4 entities and 4 relations"/);
  });

  it('wraps a long name between words, with the whole name as the tooltip', () => {
    expect(html).toContain('<title>POST /locations/{locationId}/items (Endpoint)</title>');
    expect(html).toMatch(/<tspan[^>]*>POST \/locations\/<\/tspan><tspan[^>]*>\{locationId\}\/items<\/tspan>/);
    expect(html).not.toContain('…');
  });

  it('anchors labels outward and pads the view box around them', () => {
    const labels = [...html.matchAll(/<text x="([-\d.e]+)"[^>]*text-anchor="(\w+)"/g)].map(
      ([, x, anchor]) => ({
        side: Math.sign(Number(x)),
        anchor,
      }),
    );
    expect(labels).toContainEqual({ side: 0, anchor: 'middle' });
    for (const { side, anchor } of labels) {
      if (side !== 0) expect(anchor).toBe(side < 0 ? 'end' : 'start');
    }
    const [x, y, width, height] = (/viewBox="([^"]+)"/.exec(html)?.[1] ?? '').split(' ').map(Number);
    expect(x).toBeLessThan(0);
    expect(y).toBeLessThan(0);
    expect((x ?? 0) + (width ?? 0)).toBeGreaterThan(0);
    expect((y ?? 0) + (height ?? 0)).toBeGreaterThan(0);
  });

  it('leaves the labels past hop 1 of a crowded graph to hover', () => {
    const crowd = [
      nodes[0]!,
      ...Array.from({ length: 35 }, (_, index) => node(`Thing:${index}`, `thing ${index}`, 2)),
    ];
    const crowded = renderToStaticMarkup(createElement(GraphView, { nodes: crowd, edges: [] }));
    expect(crowded.match(/<g class="on-hover">/g)).toHaveLength(35);
    expect(crowded).toContain('<title>thing 34 (Thing)</title>');
  });
});

describe('GraphLists', () => {
  const html = renderToStaticMarkup(createElement(GraphLists, { entities: nodes, edges, depth: 2 }));

  it('links each entity but the start to its own neighbourhood, with the same hops', () => {
    expect(html).toContain('<strong>Zephyr widget</strong> <span class="muted">(Product, start)</span>');
    expect(html).toContain(
      '<a href="/graph?ids=Concept%3Awarranty&amp;depth=2">warranty</a> <span class="muted">(Concept, hop 1)</span>',
    );
  });

  it('links each of several starts, to see it alone', () => {
    const two = [node('Product:zephyr widget', 'Zephyr widget', 0), node('Concept:warranty', 'warranty', 0)];
    const html = renderToStaticMarkup(createElement(GraphLists, { entities: two, edges: [], depth: 1 }));
    expect(html).toContain('<a href="/graph?ids=Product%3Azephyr+widget">Zephyr widget</a>');
    expect(html).toContain('No relation within these hops.');
  });

  it('names both ends of a relation, also one outside the entities returned', () => {
    expect(html).toContain(
      '<strong>Zephyr widget</strong> <em>resource has endpoint</em> <a href="/graph?ids=Endpoint%3APOST+%2Flocations%2F%7BlocationId%7D%2Fitems&amp;depth=2">POST /locations/{locationId}/items</a>',
    );
    expect(html).toContain('<em>references</em> <a href="/graph?ids=Schema%3AClaim&amp;depth=2">Claim</a>');
  });
});

describe('GraphSearchResults', () => {
  const render = (passages: number, entities: Parameters<typeof GraphSearchResults>[0]['entities']) =>
    renderToStaticMarkup(createElement(GraphSearchResults, { query: 'warranty', passages, entities }));

  it('lists the entities found, each a link to its neighbourhood', () => {
    const html = render(4, [
      { id: 'Concept:warranty', type: 'Concept', name: 'warranty', passages: 3, bestRank: 1, named: true },
      { id: 'Schema:Claim', type: 'Schema', name: 'Claim', passages: 1, bestRank: 2, named: false },
    ]);
    expect(html).toContain('2 entities in the 4 best-matching passages');
    expect(html).toContain(
      '<a href="/graph?ids=Concept%3Awarranty">warranty <span class="muted">(Concept, mentioned in 3 passages)</span></a>',
    );
    expect(html).toContain('(Schema, mentioned in 1 passage)');
  });

  it('says plainly when nothing was found', () => {
    expect(render(0, [])).toBe('<p role="status">No passage matches “warranty”, so no entity was found.</p>');
    expect(render(2, [])).toBe('<p role="status">The 2 passages matching “warranty” mention no entity.</p>');
  });
});
