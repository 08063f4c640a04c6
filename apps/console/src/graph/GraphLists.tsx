import { Link } from '../layout/Link.js';
import { relationLabel, splitEntityId } from './graph-names.js';
import { graphHref } from './graph-url.js';
import type { GraphEdge, GraphNode } from './GraphView.js';

/**
 * The neighbourhood as lists, which say what the picture shows in words: every entity but a lone
 * start links to its own neighbourhood (same hops), and relations name both ends.
 */
export function GraphLists({
  entities,
  edges,
  depth,
}: {
  entities: GraphNode[];
  edges: GraphEdge[];
  depth: number;
}) {
  const byId = new Map(entities.map((entity) => [entity.id, entity]));
  const starts = entities.filter((entity) => entity.hop === 0).length;
  const entity = (id: string) => {
    const known = byId.get(id);
    const name = known?.name ?? splitEntityId(id).name;
    // A lone start is what the page shows already: a link to it would lead nowhere new.
    return known?.hop === 0 && starts === 1 ? (
      <strong>{name}</strong>
    ) : (
      <Link href={graphHref({ ids: [id], depth })}>{name}</Link>
    );
  };
  return (
    <div className="graph-lists">
      <section aria-labelledby="entities-heading">
        <h2 id="entities-heading">Entities</h2>
        <ul className="graph-list">
          {entities.map((node) => (
            <li key={node.id}>
              {entity(node.id)}{' '}
              <span className="muted">
                ({node.type}, {node.hop === 0 ? 'start' : `hop ${node.hop}`})
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="relations-heading">
        <h2 id="relations-heading">Relations</h2>
        {edges.length === 0 ? (
          <p className="muted">No relation within these hops.</p>
        ) : (
          <ul className="graph-list">
            {edges.map((edge, index) => (
              <li key={index}>
                {entity(edge.from)} <em>{relationLabel(edge.type)}</em> {entity(edge.to)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
