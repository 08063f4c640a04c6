import { afterEach, describe, expect, it } from 'vitest';
import { AgenticRagClient } from './client.js';

/** Where the client sends a request: a fetch that records the URL and answers like the entity route. */
function recordingFetch(urls: string[]): typeof fetch {
  return (input) => {
    urls.push(String(input));
    return Promise.resolve(new Response(JSON.stringify({ id: 'algorithm_3_2' }), { status: 200 }));
  };
}

describe('AgenticRagClient base URL', () => {
  const saved = process.env.RAG_SERVICE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.RAG_SERVICE_URL;
    else process.env.RAG_SERVICE_URL = saved;
  });

  it.each([
    [
      { baseUrl: 'http://rag.internal:9000/' },
      'http://localhost:8001',
      'http://rag.internal:9000/entity/algorithm/3.2',
    ],
    [{}, 'http://localhost:8001', 'http://localhost:8001/entity/algorithm/3.2'],
    [{}, undefined, 'http://localhost:4000/entity/algorithm/3.2'],
  ])('with %j and RAG_SERVICE_URL=%s calls %s', async (options, environment, expected) => {
    if (environment === undefined) delete process.env.RAG_SERVICE_URL;
    else process.env.RAG_SERVICE_URL = environment;
    const urls: string[] = [];
    await new AgenticRagClient({ ...options, fetch: recordingFetch(urls), cacheRest: false }).entity(
      'algorithm',
      '3.2',
    );
    expect(urls).toEqual([expected]);
  });
});

describe('AgenticRagClient.ragAnswer citations', () => {
  /** A citation as the API resolves it, with every field of GraphQL's `Citation`. */
  const RESOLVED = {
    index: 1,
    sourceId: 'manual.pdf',
    chunkId: 'c1',
    title: 'Manual',
    url: null,
    snippet: 'the folio',
    startOffset: 0,
    endOffset: 9,
    score: 0.8,
    pageNumber: 12,
  };

  /** Answers like GraphQL does: a citation carries only the fields the query selected. */
  function graphqlFetch(queries: string[]): typeof fetch {
    return (_input, init) => {
      const { query } = JSON.parse(String(init?.body)) as { query: string };
      queries.push(query);
      // The citation's fields are a fragment's (`citations { ...CitationFields }`).
      const fragment = /fragment CitationFields on Citation\s*\{([^}]*)\}/.exec(query)?.[1];
      const selected = fragment?.trim().split(/\s+/) ?? [];
      const citation = Object.fromEntries(
        Object.entries(RESOLVED).filter(([field]) => selected.includes(field)),
      );
      const ragAnswer = { answer: 'a [1]', refused: false, citations: [citation] };
      return Promise.resolve(new Response(JSON.stringify({ data: { ragAnswer } }), { status: 200 }));
    };
  }

  it("asks for each citation's page and exact span and returns them", async () => {
    const queries: string[] = [];
    const client = new AgenticRagClient({
      baseUrl: 'http://api.test',
      workspaceId: 'manuals',
      fetch: graphqlFetch(queries),
    });
    const answer = await client.ragAnswer({ query: 'where is the folio?' });
    expect(queries).toHaveLength(1);
    expect(answer.citations[0]!.pageNumber).toBe(12);
    expect(answer.citations[0]).toEqual({
      index: 1,
      sourceId: 'manual.pdf',
      chunkId: 'c1',
      title: 'Manual',
      url: null,
      snippet: 'the folio',
      startOffset: 0,
      endOffset: 9,
      score: 0.8,
      pageNumber: 12,
    });
  });
});
