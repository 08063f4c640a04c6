import { Link } from '../layout/Link.js';
import { count } from './graph-names.js';
import type { MentionedEntity } from './graph-search.js';
import { graphHref } from './graph-url.js';

/** The entities a search found, most mentioned first; each opens its neighbourhood. */
export function GraphSearchResults({
  query,
  passages,
  entities,
}: {
  query: string;
  passages: number;
  entities: MentionedEntity[];
}) {
  if (passages === 0) return <p role="status">No passage matches “{query}”, so no entity was found.</p>;
  if (entities.length === 0) {
    return (
      <p role="status">
        The {count(passages, 'passage')} matching “{query}” mention no entity.
      </p>
    );
  }
  return (
    <section aria-labelledby="graph-found-heading">
      <h2 id="graph-found-heading">Entities mentioned in passages matching “{query}”</h2>
      <p className="muted" role="status">
        {count(entities.length, 'entity', 'entities')} in the {count(passages, 'best-matching passage')}.
        Choose one to see its neighbourhood.
      </p>
      <ul className="graph-list">
        {entities.map((entity) => (
          <li key={entity.id}>
            <Link href={graphHref({ ids: [entity.id] })}>
              {entity.name}{' '}
              <span className="muted">
                ({entity.type}, mentioned in {count(entity.passages, 'passage')})
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
