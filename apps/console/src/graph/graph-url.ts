/** What the Graph page shows, all of it in the URL so Back, Forward and a shared link restore it. */
export interface GraphPlace {
  /** A search for entities (`?q=`). */
  query: string;
  /** The entities to expand (`?ids=`, one parameter per id: names may hold commas). */
  ids: string[];
  /** Hops to expand, 1 to 3 (`?depth=`, left out when 1). */
  depth: number;
}

export const DEPTHS = [1, 2, 3] as const;

export function readGraphPlace(params: URLSearchParams): GraphPlace {
  const depth = Number(params.get('depth') ?? 1);
  return {
    query: params.get('q')?.trim() ?? '',
    ids: params
      .getAll('ids')
      .map((id) => id.trim())
      .filter(Boolean),
    depth: DEPTHS.some((allowed) => allowed === depth) ? depth : 1,
  };
}

export function graphHref(place: Partial<GraphPlace>): string {
  const params = new URLSearchParams();
  if (place.query) params.set('q', place.query);
  for (const id of place.ids ?? []) params.append('ids', id);
  if (place.depth && place.depth !== 1) params.set('depth', String(place.depth));
  const search = params.toString();
  return search ? `/graph?${search}` : '/graph';
}
