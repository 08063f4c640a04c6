import { useMemo } from 'react';
import { FONT_SIZE, LINE_HEIGHT, layoutGraph } from './graph-layout.js';

export interface GraphNode {
  id: string;
  type: string;
  name: string;
  hop: number;
  strength: number;
}
export interface GraphEdge {
  from: string;
  to: string;
  type: string;
  weight: number;
}

// The picture fills its column but a unit never becomes more than this many pixels, so a small
// graph keeps readable type instead of being blown up; a big one gets the whole width.
const MAX_SCALE = 1.5;

/** The neighbourhood as rings by hop around the start: a picture; the lists beside it say the same. */
export function GraphView({ nodes, edges }: { nodes: GraphNode[]; edges: GraphEdge[] }) {
  const layout = useMemo(() => layoutGraph(nodes, edges), [nodes, edges]);
  const position = new Map(layout.nodes.map((at) => [at.node.id, at]));
  // Labels shown on hover are drawn last, over the others.
  const drawn = [
    ...layout.nodes.filter((at) => at.label.shown === 'always'),
    ...layout.nodes.filter((at) => at.label.shown === 'hover'),
  ];
  const { x, y, width, height } = layout.viewBox;
  return (
    <svg
      className="graph-view"
      viewBox={`${x} ${y} ${width} ${height}`}
      style={{ maxWidth: width * MAX_SCALE }}
      fontSize={FONT_SIZE}
      role="img"
      aria-label={`Graph of ${nodes.length} entities and ${edges.length} relations`}
    >
      {edges.map((edge, index) => {
        const from = position.get(edge.from);
        const to = position.get(edge.to);
        if (!from || !to) return null;
        return <line key={index} x1={from.x} y1={from.y} x2={to.x} y2={to.y} className="edge" />;
      })}
      {drawn.map(({ node, x: cx, y: cy, radius, label }) => (
        <g key={node.id} className={label.shown === 'hover' ? 'on-hover' : undefined}>
          <title>{`${node.name} (${node.type})`}</title>
          <circle cx={cx} cy={cy} r={radius} className={`node hop-${Math.min(node.hop, 3)}`} />
          <text x={label.x} y={label.y} textAnchor={label.anchor}>
            {label.lines.map((line, index) => (
              <tspan key={index} x={label.x} dy={index === 0 ? 0 : LINE_HEIGHT}>
                {line}
              </tspan>
            ))}
          </text>
        </g>
      ))}
    </svg>
  );
}
