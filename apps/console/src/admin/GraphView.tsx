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

const SIZE = 360;

/** The neighbourhood as rings by hop around the start: a picture; the lists beside it say the same. */
export function GraphView({ nodes, edges }: { nodes: GraphNode[]; edges: GraphEdge[] }) {
  const byHop = new Map<number, GraphNode[]>();
  for (const node of nodes) byHop.set(node.hop, [...(byHop.get(node.hop) ?? []), node]);
  const position = new Map<string, { x: number; y: number }>();
  for (const [hop, ring] of byHop) {
    ring.forEach((node, index) => {
      const angle = (2 * Math.PI * index) / ring.length + hop;
      const radius = hop === 0 && ring.length === 1 ? 0 : 50 + hop * 55;
      position.set(node.id, {
        x: SIZE / 2 + radius * Math.cos(angle),
        y: SIZE / 2 + radius * Math.sin(angle),
      });
    });
  }
  return (
    <svg
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      role="img"
      aria-label={`Graph of ${nodes.length} entities and ${edges.length} relations`}
    >
      {edges.map((edge, index) => {
        const from = position.get(edge.from);
        const to = position.get(edge.to);
        if (!from || !to) return null;
        return <line key={index} x1={from.x} y1={from.y} x2={to.x} y2={to.y} className="edge" />;
      })}
      {nodes.map((node) => {
        const at = position.get(node.id)!;
        return (
          <g key={node.id}>
            <circle
              cx={at.x}
              cy={at.y}
              r={node.hop === 0 ? 8 : 5}
              className={`node hop-${Math.min(node.hop, 3)}`}
            />
            <text x={at.x + 9} y={at.y + 4}>
              {node.name.length > 24 ? `${node.name.slice(0, 23)}…` : node.name}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
