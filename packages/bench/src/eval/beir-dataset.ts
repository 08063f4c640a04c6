import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '@agentic-rag/core';

export interface BeirQuery {
  id: string;
  text: string;
}

export interface BeirDataset {
  directory: string;
  corpusFile: string;
  queries: BeirQuery[];
  /** query id → (corpus id → grade) */
  qrels: Map<string, Map<string, number>>;
}

/**
 * Reads a BEIR-format dataset: corpus.jsonl ({_id, title, text}), queries.jsonl ({_id, text}) and
 * qrels/<split>.tsv (query-id, corpus-id, score, with a header line). Only queries that have
 * judgments are kept, as BEIR's evaluation does.
 */
export async function loadBeirDataset(directory: string, split = 'test'): Promise<BeirDataset> {
  const read = async (file: string) => {
    try {
      return await readFile(path.join(directory, file), 'utf8');
    } catch {
      throw new RagError(
        ErrorCode.NOT_FOUND,
        `${path.join(directory, file)} is missing: not a BEIR dataset directory`,
      );
    }
  };
  await read('corpus.jsonl');
  const qrels = new Map<string, Map<string, number>>();
  const lines = (await read(path.join('qrels', `${split}.tsv`)))
    .split('\n')
    .filter((line) => line.trim() !== '');
  for (const [index, line] of lines.entries()) {
    const [queryId, corpusId, score] = line.split('\t');
    if (index === 0 && Number.isNaN(Number(score))) continue; // header
    if (!queryId || !corpusId || score === undefined || Number.isNaN(Number(score))) {
      throw new RagError(
        ErrorCode.PARSE_FAILED,
        `qrels/${split}.tsv line ${index + 1}: expected query-id, corpus-id, score`,
      );
    }
    const judgments = qrels.get(queryId) ?? new Map<string, number>();
    judgments.set(corpusId, Number(score));
    qrels.set(queryId, judgments);
  }
  const queries: BeirQuery[] = [];
  for (const [index, line] of (await read('queries.jsonl')).split('\n').entries()) {
    if (line.trim() === '') continue;
    let parsed: { _id?: unknown; text?: unknown };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      throw new RagError(ErrorCode.PARSE_FAILED, `queries.jsonl line ${index + 1}: invalid JSON`);
    }
    if (typeof parsed._id !== 'string' || typeof parsed.text !== 'string') {
      throw new RagError(ErrorCode.PARSE_FAILED, `queries.jsonl line ${index + 1}: expected {"_id", "text"}`);
    }
    if (qrels.has(parsed._id)) queries.push({ id: parsed._id, text: parsed.text });
  }
  return { directory, corpusFile: path.join(directory, 'corpus.jsonl'), queries, qrels };
}
