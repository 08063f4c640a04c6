import { loadSqlFile, type Sql } from '../db/index.js';
import { STOPWORDS, wordsOf, type Embedder } from '../embed/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { vectorLiteral } from '../store/index.js';

const DENSE = loadSqlFile(new URL('./sql/dense.sql', import.meta.url));
const LEXICAL = loadSqlFile(new URL('./sql/lexical.sql', import.meta.url));
const HYDRATE = loadSqlFile(new URL('./sql/hydrate.sql', import.meta.url));

export interface SearchOptions {
  workspaceId: string;
  query: string;
  k?: number;
  /** Weights of the fused channels; each channel's scores are min-max normalised first. */
  weights?: { vector: number; lexical: number };
  signal?: AbortSignal;
}

export interface ChannelScore {
  score: number;
  rank: number;
}

export interface SearchHit {
  chunkId: string;
  sourcePath: string;
  title: string | null;
  url: string | null;
  text: string;
  startOffset: number;
  endOffset: number;
  sectionPath: string;
  score: number;
  /** Raw score and 1-based rank in each channel that found the chunk: why it was retrieved. */
  channels: { vector?: ChannelScore; lexical?: ChannelScore };
}

/**
 * Hybrid search: a dense and a lexical channel, each normalised to [0, 1] and fused by weight.
 * Every hit carries its per-channel scores and ranks.
 */
export async function search(
  sqlClient: Sql,
  embedder: Embedder,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const query = options.query.trim();
  if (query.length === 0) throw new RagError(ErrorCode.INVALID_INPUT, 'query must not be empty');
  const k = options.k ?? 10;
  const weights = options.weights ?? { vector: 0.5, lexical: 0.5 };
  const candidates = Math.max(50, k * 5);

  const [vector] = (
    await embedder.embed({
      texts: [query],
      purpose: 'query',
      ...(options.signal ? { signal: options.signal } : {}),
    })
  ).embeddings;
  const terms = [
    ...new Set(wordsOf(query).filter((word) => !STOPWORDS.has(word) && /^[a-z0-9.]+$/.test(word))),
  ];
  const [dense, lexical] = await Promise.all([
    sqlClient.query<{ id: number; score: number }>(DENSE, [
      options.workspaceId,
      vectorLiteral(vector!),
      embedder.modelId,
      candidates,
    ]),
    terms.length === 0
      ? Promise.resolve({ rows: [] as Array<{ id: number; score: number }> })
      : sqlClient.query<{ id: number; score: number }>(LEXICAL, [
          options.workspaceId,
          terms.join(' | '),
          candidates,
        ]),
  ]);

  const fused = new Map<number, { score: number; channels: SearchHit['channels'] }>();
  const addChannel = (
    rows: Array<{ id: number; score: number }>,
    channel: 'vector' | 'lexical',
    weight: number,
  ) => {
    const scores = rows.map((row) => row.score);
    const min = Math.min(...scores);
    const max = Math.max(...scores);
    rows.forEach((row, index) => {
      const normalised = max > min ? (row.score - min) / (max - min) : 1;
      const entry = fused.get(row.id) ?? { score: 0, channels: {} };
      entry.score += weight * normalised;
      entry.channels[channel] = { score: row.score, rank: index + 1 };
      fused.set(row.id, entry);
    });
  };
  addChannel(dense.rows, 'vector', weights.vector);
  addChannel(lexical.rows, 'lexical', weights.lexical);

  const top = [...fused.entries()].sort((left, right) => right[1].score - left[1].score).slice(0, k);
  if (top.length === 0) return [];
  const rows = await sqlClient.query<{
    id: number;
    chunk_id: string;
    text: string;
    start_offset: number;
    end_offset: number;
    section_path: string;
    source_path: string;
    title: string | null;
    url: string | null;
  }>(HYDRATE, [top.map(([id]) => id)]);
  const byId = new Map(rows.rows.map((row) => [row.id, row]));
  return top.flatMap(([id, entry]) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        chunkId: row.chunk_id,
        sourcePath: row.source_path,
        title: row.title,
        url: row.url,
        text: row.text,
        startOffset: row.start_offset,
        endOffset: row.end_offset,
        sectionPath: row.section_path,
        score: entry.score,
        channels: entry.channels,
      },
    ];
  });
}
