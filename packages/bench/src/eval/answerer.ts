import { ErrorCode, type HybridRetriever, RagError, type RagOrchestrator } from '@agentic-rag/core';

/** What an evaluation needs to see of one answer, whichever way it was asked for. */
export interface AnswerObservation {
  answer: string;
  refused: boolean;
  cached: boolean;
  runId: string;
  /** Cited document ids, in citation order. */
  citations: string[];
  /** Retrieved document ids, best first, each once (a document ranks at its best chunk). */
  retrieved: string[];
  /** The self-check's share of answer sentences the cited sources support. */
  citationCoverage: number;
  stages: Array<{ name: string; ms: number }>;
  /** Wall time of the call, as the caller saw it. */
  totalMs: number;
  /** Cited snippets, for a judge. */
  snippets: string[];
}

/** Asks one question: the library in this process, or a running API over GraphQL. */
export interface Answerer {
  readonly name: string;
  /** `topK` unset: the service's own default (AGENTIC_RAG_TOPK), as a client would get. */
  answer(question: string, workspaceId: string, topK?: number): Promise<AnswerObservation>;
  /**
   * A plain search, as GraphQL `search` returns it: document ids of the hits, best first, each
   * once. For the precision set's "search top-1"; absent when the answerer cannot search.
   */
  search?(question: string, workspaceId: string): Promise<string[]>;
}

const uniqueSources = (hits: ReadonlyArray<{ sourceId: string }>) => [
  ...new Set(hits.map((hit) => hit.sourceId)),
];

/** What both ways of asking return: the shape of `ragAnswer` with `debug: true`. */
interface AnswerShape {
  answer: string;
  refused: boolean;
  cached: boolean;
  runId: string;
  citations: ReadonlyArray<{ sourceId: string; snippet: string }>;
  selfCheck: { citationCoverage: number };
  debug: {
    stages: Array<{ name: string; ms: number }>;
    candidates: ReadonlyArray<{ sourceId: string }>;
  } | null;
}

function observation(result: AnswerShape, started: number): AnswerObservation {
  return {
    answer: result.answer,
    refused: result.refused,
    cached: result.cached,
    runId: result.runId,
    citations: result.citations.map((citation) => citation.sourceId),
    retrieved: [...new Set(result.debug?.candidates.map((candidate) => candidate.sourceId) ?? [])],
    citationCoverage: result.selfCheck.citationCoverage,
    stages: result.debug?.stages ?? [],
    totalMs: performance.now() - started,
    snippets: result.citations.map((citation) => citation.snippet),
  };
}

export class LibraryAnswerer implements Answerer {
  readonly name = 'library';

  constructor(
    private readonly orchestrator: RagOrchestrator,
    private readonly retriever?: Pick<HybridRetriever, 'retrieve'>,
  ) {}

  async search(question: string, workspaceId: string): Promise<string[]> {
    if (!this.retriever) return [];
    const result = await this.retriever.retrieve({ workspaceId, query: question, k: 10 });
    return uniqueSources(result.hits.map((hit) => ({ sourceId: hit.sourcePath })));
  }

  async answer(question: string, workspaceId: string, topK?: number): Promise<AnswerObservation> {
    const started = performance.now();
    return observation(
      await this.orchestrator.answer({
        query: question,
        workspaceId,
        ...(topK ? { topK } : {}),
        debug: true,
      }),
      started,
    );
  }
}

const SEARCH = `query EvalSearch($input: SearchInput!) {
  search(input: $input) { hits { sourceId } }
}`;

const RAG_ANSWER = `mutation Eval($input: RagAnswerInput!) {
  ragAnswer(input: $input) {
    answer refused cached runId
    citations { sourceId snippet }
    selfCheck { citationCoverage }
    debug { stages { name ms } candidates { sourceId } }
  }
}`;

/** The same questions through a running API (`--endpoint`): what its clients get, network included. */
export class GraphqlAnswerer implements Answerer {
  readonly name = 'graphql';

  constructor(
    private readonly endpoint: string,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly timeoutMs = 60_000,
    /** The API key to ask with (AGENTIC_RAG_API_KEY for rag:eval --endpoint). */
    private readonly apiKey?: string,
  ) {}

  async answer(question: string, workspaceId: string, topK?: number): Promise<AnswerObservation> {
    const started = performance.now();
    const input = { query: question, workspaceId, ...(topK ? { topK } : {}), debug: true };
    const data = await this.post<{ ragAnswer?: AnswerShape }>(RAG_ANSWER, { input });
    return observation(data.ragAnswer!, started);
  }

  async search(question: string, workspaceId: string): Promise<string[]> {
    const data = await this.post<{ search?: { hits: Array<{ sourceId: string }> } }>(SEARCH, {
      input: { query: question, workspaceId, k: 10 },
    });
    return uniqueSources(data.search?.hits ?? []);
  }

  /**
   * One GraphQL request with the key. A refused key is UNAUTHENTICATED or FORBIDDEN, which stops
   * a run (see runGolden): every later question would be refused the same way.
   */
  private async post<Data>(query: string, variables: Record<string, unknown>): Promise<Data> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
        // A server that hangs must cost one question, not the run.
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new RagError(
        ErrorCode.UPSTREAM_UNAVAILABLE,
        `cannot reach ${this.endpoint}: ${(error as Error).message}`,
      );
    }
    const body = (await response.json().catch(() => null)) as {
      data?: Data | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    } | null;
    const error = body?.errors?.[0];
    const code = error?.extensions?.code;
    if (response.status === 401 || code === ErrorCode.UNAUTHENTICATED)
      throw new RagError(
        ErrorCode.UNAUTHENTICATED,
        `${this.endpoint} refused ${this.apiKey ? 'the API key' : 'a request without an API key'} (${response.status}${error ? `: ${error.message}` : ''}); pass --api-key or set AGENTIC_RAG_API_KEY`,
      );
    if (response.status === 403 || code === ErrorCode.FORBIDDEN)
      throw new RagError(
        ErrorCode.FORBIDDEN,
        `${this.endpoint}: the API key may not do this (${response.status}${error ? `: ${error.message}` : ''}); it needs read access to the workspace`,
      );
    const data = body?.data;
    if (!data || Object.values(data).some((value) => value === null)) {
      throw new RagError(
        ErrorCode.UPSTREAM_UNAVAILABLE,
        `${this.endpoint} answered ${response.status}${error ? `: [${code ?? 'ERROR'}] ${error.message}` : ''}`,
      );
    }
    return data;
  }
}
