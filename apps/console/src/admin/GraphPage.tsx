import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { EXPAND_GRAPH } from '../api/operations.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';
import { GraphView, type GraphEdge, type GraphNode } from './GraphView.js';

/** An entity's neighbourhood in the knowledge graph (expandGraph), as a picture and as lists. */
export function GraphPage({ params }: { params: URLSearchParams }) {
  const { apiKey, workspaceId } = useSession();
  const linked = params.get('ids') ?? '';
  const [ids, setIds] = useState(linked);
  const [depth, setDepth] = useState(1);
  const [graph, setGraph] = useState<{ entities: GraphNode[]; edges: GraphEdge[] } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const expand = useCallback(
    async (list: string[], hops: number) => {
      setError(null);
      try {
        const data = await graphql<{ expandGraph: { entities: GraphNode[]; edges: GraphEdge[] } }>(
          apiKey,
          EXPAND_GRAPH,
          { workspaceId, ids: list, depth: hops },
        );
        setGraph(data.expandGraph);
      } catch (caught) {
        setGraph(null);
        setError(asApiError(caught));
      }
    },
    [apiKey, workspaceId],
  );

  // Opened from a search hit's mention (/graph?ids=Type:name): expanded at once.
  useEffect(() => {
    if (linked) {
      setIds(linked);
      void expand(linked.split(','), 1);
    }
  }, [linked, expand]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void expand(ids.split(/\s*,\s*/).filter(Boolean), depth);
  };

  const names = new Map(graph?.entities.map((entity) => [entity.id, entity.name]));
  return (
    <>
      <h1>Knowledge graph</h1>
      <form className="stack" onSubmit={submit}>
        <label htmlFor="graph-ids">
          Entity ids (Type:name, comma-separated; the Ask page links the ones each passage mentions)
        </label>
        <input
          id="graph-ids"
          required
          value={ids}
          onChange={(event) => setIds(event.target.value)}
          placeholder="Algorithm:3.2"
        />
        <label htmlFor="graph-depth">Hops</label>
        <select id="graph-depth" value={depth} onChange={(event) => setDepth(Number(event.target.value))}>
          {[1, 2, 3].map((hops) => (
            <option key={hops}>{hops}</option>
          ))}
        </select>
        <button type="submit">Expand</button>
      </form>
      <ErrorMessage error={error} />
      {graph && graph.entities.length === 0 && (
        <p role="status">No entity with these ids in this workspace.</p>
      )}
      {graph && graph.entities.length > 0 && (
        <div className="graph">
          <GraphView nodes={graph.entities} edges={graph.edges} />
          <section aria-labelledby="entities-heading">
            <h2 id="entities-heading">Entities</h2>
            <ul>
              {graph.entities.map((entity) => (
                <li key={entity.id}>
                  {entity.name}{' '}
                  <span className="muted">
                    ({entity.type}, {entity.id}, hop {entity.hop})
                  </span>
                </li>
              ))}
            </ul>
            <h2>Relations</h2>
            <ul>
              {graph.edges.map((edge, index) => (
                <li key={index}>
                  {names.get(edge.from) ?? edge.from} <em>{edge.type}</em> {names.get(edge.to) ?? edge.to}
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </>
  );
}
