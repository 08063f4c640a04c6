import { wrapLabel } from './graph-label.js';
import { assignSlots, ringSlots } from './graph-rings.js';

/** What the layout reads of a node and an edge (GraphView's GraphNode and GraphEdge have more). */
export interface LayoutNode {
  id: string;
  name: string;
  hop: number;
  strength: number;
}
export interface LayoutEdge {
  from: string;
  to: string;
}

/** Label type metrics in SVG units; GraphView draws with these, so the estimates below hold. */
export const FONT_SIZE = 12;
export const LINE_HEIGHT = 14;
// An average glyph of a sans-serif UI font is about half an em wide; 0.6 errs on the wide side.
const CHAR_WIDTH = FONT_SIZE * 0.6;
const ASCENT = FONT_SIZE * 0.8;
/** Past this many nodes only hops 0 and 1 are labelled; the rest show theirs on hover. */
export const CROWDED = 30;

const PADDING = 12;
const LABEL_GAP = 5;
const MIN_RADIUS = 2 * LINE_HEIGHT;
// Height between nodes on a side of a ring whose labels wait for hover: room for the dots alone.
const HOVER_SPACING = 14;
const HOVER_RING_GAP = 60;
// Tries a label at this many distances outward before leaving it to hover: further out, it would
// stand too far from its node to say whose it is.
const LABEL_TRIES = 2;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacedNode<N extends LayoutNode = LayoutNode> {
  node: N;
  x: number;
  y: number;
  radius: number;
  label: {
    lines: string[];
    /** Where the first line's anchor is; each next line sits LINE_HEIGHT lower. */
    x: number;
    y: number;
    anchor: 'start' | 'middle' | 'end';
    /** `hover`: crowded out, or past hop 1 in a big graph; shown when the pointer is on the node. */
    shown: 'always' | 'hover';
    box: Box;
  };
}

export interface GraphLayout<N extends LayoutNode = LayoutNode> {
  /** Inner hops first, then the strongest: the order their labels were placed in. */
  nodes: PlacedNode<N>[];
  viewBox: { x: number; y: number; width: number; height: number };
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const circleBox = (x: number, y: number, radius: number): Box => ({
  left: x - radius,
  top: y - radius,
  right: x + radius,
  bottom: y + radius,
});

const labelWidth = (lines: string[]) => Math.max(0, ...lines.map((line) => line.length)) * CHAR_WIDTH;

/**
 * Rings by hop round the start: each ring far enough out for the labels of the ring inside it and
 * long enough for its nodes; labels outward (ending left of centre, starting right of it), moved
 * further out or left to hover when they would cover another; the view box holds every label.
 */
export function layoutGraph<N extends LayoutNode>(nodes: N[], edges: LayoutEdge[]): GraphLayout<N> {
  if (nodes.length === 0) return { nodes: [], viewBox: { x: 0, y: 0, width: 0, height: 0 } };
  const crowded = nodes.length > CROWDED;
  const labelledHop = (hop: number) => !crowded || hop <= 1;
  const hops = [...new Set(nodes.map((node) => node.hop))].sort((a, b) => a - b);
  const neighbours = new Map<string, string[]>();
  for (const edge of edges) {
    neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
    neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
  }
  const lines = new Map(nodes.map((node) => [node.id, wrapLabel(node.name || node.id)]));

  const placedAngle = new Map<string, number>();
  const placed: Omit<PlacedNode<N>, 'label'>[] = [];
  let outerEdge = 0;
  for (const hop of hops) {
    const ring = nodes.filter((node) => node.hop === hop);
    const centred = placed.length === 0 && ring.length === 1;
    const tallest = Math.max(...ring.map((node) => lines.get(node.id)?.length ?? 1));
    const spacing = labelledHop(hop) ? tallest * LINE_HEIGHT + LABEL_GAP : HOVER_SPACING;
    // A side holds half the ring: its height (the diameter) parted into that many spaces.
    const radius = centred ? 0 : Math.max(outerEdge, (Math.ceil(ring.length / 2) * spacing) / 2, MIN_RADIUS);
    const angles = assignSlots(
      ring.map((node) => node.id),
      ringSlots(ring.length),
      placedAngle,
      neighbours,
    );
    for (const node of ring) {
      const angle = angles.get(node.id) ?? 0;
      placedAngle.set(node.id, angle);
      placed.push({
        node,
        x: radius * Math.cos(angle),
        y: radius * Math.sin(angle),
        radius: node.hop === 0 ? 8 : 5,
      });
    }
    // The next ring starts beyond this one's labels, which point outward into the gap.
    const widest = Math.max(...ring.map((node) => labelWidth(lines.get(node.id) ?? [])));
    outerEdge =
      radius + (labelledHop(hop) ? (centred ? widest / 2 : widest) + 2 * LINE_HEIGHT : HOVER_RING_GAP);
  }

  // Node circles are obstacles from the start; labels join them as they are placed, inner hops first.
  const obstacles = placed.map((at) => circleBox(at.x, at.y, at.radius + 2));
  const byPriority = [...placed].sort((a, b) => a.node.hop - b.node.hop || b.node.strength - a.node.strength);
  const laidOut: PlacedNode<N>[] = [];
  for (const at of byPriority) {
    const text = lines.get(at.node.id) ?? [];
    const width = labelWidth(text);
    const height = text.length * LINE_HEIGHT;
    const distance = Math.hypot(at.x, at.y);
    // Straight out from the centre; the node at the centre has its label below it.
    const [dx, dy] = distance < 0.5 ? [0, 1] : [at.x / distance, at.y / distance];
    const anchor = at.x < -0.5 ? 'end' : at.x > 0.5 ? 'start' : 'middle';
    const place = (attempt: number): Omit<PlacedNode['label'], 'shown'> => {
      const out = at.radius + LABEL_GAP + attempt * LINE_HEIGHT;
      const x = at.x + dx * out;
      const middle = at.y + dy * out + (dy * height) / 2;
      const left = anchor === 'end' ? x - width : anchor === 'middle' ? x - width / 2 : x;
      const box = { left, top: middle - height / 2, right: left + width, bottom: middle + height / 2 };
      return { lines: text, x, y: box.top + ASCENT, anchor, box };
    };
    const free = labelledHop(at.node.hop)
      ? Array.from({ length: LABEL_TRIES }, (_, attempt) => place(attempt)).find(
          (label) => !obstacles.some((box) => overlaps(box, label.box)),
        )
      : undefined;
    if (free) obstacles.push(free.box);
    laidOut.push({ ...at, label: free ? { ...free, shown: 'always' } : { ...place(0), shown: 'hover' } });
  }

  const boxes = laidOut.flatMap((at) => [circleBox(at.x, at.y, at.radius), at.label.box]);
  const left = Math.floor(Math.min(...boxes.map((box) => box.left)) - PADDING);
  const top = Math.floor(Math.min(...boxes.map((box) => box.top)) - PADDING);
  const right = Math.ceil(Math.max(...boxes.map((box) => box.right)) + PADDING);
  const bottom = Math.ceil(Math.max(...boxes.map((box) => box.bottom)) + PADDING);
  return { nodes: laidOut, viewBox: { x: left, y: top, width: right - left, height: bottom - top } };
}
