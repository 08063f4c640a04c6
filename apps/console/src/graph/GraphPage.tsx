import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { navigate } from '../layout/router.js';
import { useEntitySearch } from './graph-entity-search.js';
import { useExpansion } from './graph-expansion.js';
import { splitIdList } from './graph-names.js';
import { DEPTHS, graphHref, readGraphPlace } from './graph-url.js';
import { GraphLists } from './GraphLists.js';
import { GraphSearchResults } from './GraphSearchResults.js';
import { GraphView } from './GraphView.js';
import './graph.css';

/**
 * The knowledge graph, browsed: find entities through the passages that mention them (`?q=`), then
 * see one's neighbourhood (expandGraph, `?ids=`) as a picture and as lists. Every step is a URL, so
 * Back returns to the results and a link opens the same view (the Ask page links mentions here).
 */
export function GraphPage({ params }: { params: URLSearchParams }) {
  const place = readGraphPlace(params);
  return (
    <div className="graph-page">
      <h1>Knowledge graph</h1>
      {/* Keyed by what the URL says, so Back and Forward put their own values in the fields. */}
      <SearchForm key={place.query} query={place.query} />
      {/* Open unless search results are shown: with an expansion it says what is expanded, and how far. */}
      <details className="graph-by-id" open={!place.query}>
        <summary>Expand by id</summary>
        <IdForm key={`${place.ids.join('\n')}|${place.depth}`} ids={place.ids} depth={place.depth} />
      </details>
      {place.query && <SearchResults query={place.query} />}
      {place.ids.length > 0 && <Neighbourhood ids={place.ids} depth={place.depth} />}
    </div>
  );
}

function SearchForm({ query }: { query: string }) {
  const [typed, setTyped] = useState(query);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(graphHref({ query: typed.trim() }));
  };
  return (
    <form className="stack" role="search" onSubmit={submit}>
      <label htmlFor="graph-search">Find entities</label>
      <p className="hint" id="graph-search-hint">
        Words or a name: lists the entities the best-matching passages mention.
      </p>
      <div className="graph-search-row">
        <input
          id="graph-search"
          type="search"
          required
          aria-describedby="graph-search-hint"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="warranty"
        />
        <button type="submit">Search</button>
      </div>
    </form>
  );
}

function IdForm({ ids, depth }: { ids: string[]; depth: number }) {
  const [typed, setTyped] = useState(ids.join(', '));
  const [hops, setHops] = useState(depth);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(graphHref({ ids: splitIdList(typed), depth: hops }));
  };
  return (
    <form className="stack" onSubmit={submit}>
      <label htmlFor="graph-ids">
        Entity ids (Type:name, comma-separated; the Ask page links the ones each passage mentions)
      </label>
      <input
        id="graph-ids"
        required
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        placeholder="Algorithm:3.2"
      />
      <label htmlFor="graph-depth">Hops</label>
      <select id="graph-depth" value={hops} onChange={(event) => setHops(Number(event.target.value))}>
        {DEPTHS.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
      <button type="submit">Expand</button>
    </form>
  );
}

function SearchResults({ query }: { query: string }) {
  const search = useEntitySearch(query);
  if (search.status === 'failed') return <ErrorMessage error={search.error} />;
  if (search.status !== 'done') return <p className="muted">Searching…</p>;
  return <GraphSearchResults query={query} passages={search.passages} entities={search.entities} />;
}

function Neighbourhood({ ids, depth }: { ids: string[]; depth: number }) {
  const expansion = useExpansion(ids, depth);
  if (expansion.status === 'failed') return <ErrorMessage error={expansion.error} />;
  if (expansion.status !== 'done') return <p className="muted">Expanding…</p>;
  if (expansion.entities.length === 0) {
    return <p role="status">No entity with these ids in this workspace.</p>;
  }
  return (
    <div className="graph-result">
      <GraphView nodes={expansion.entities} edges={expansion.edges} />
      <GraphLists entities={expansion.entities} edges={expansion.edges} depth={depth} />
    </div>
  );
}
