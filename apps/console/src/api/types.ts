/**
 * The names the console gives the API's answers, taken from generated/graphql.ts (made by `pnpm codegen`
 * from schema.graphql and operations.ts) and, for the operations the console takes from the SDK, from
 * the SDK's own generated types, so a schema change that breaks the console fails to compile.
 */
import type { Citation as SdkCitation, SearchHit as SdkSearchHit } from '@agentic-rag/client';
import type {
  AnswerStreamSubscription,
  DocumentQuery,
  DocumentsQuery,
  EvalRunQuery,
  EvalRunsQuery,
  IngestMutation,
  JobFieldsFragment,
} from './generated/graphql.js';

type Item<T> = T extends ReadonlyArray<infer E> ? E : never;

export type Job = JobFieldsFragment;

type IngestDocuments = IngestMutation['ingestDocuments'];

export type Failure = Item<NonNullable<IngestDocuments['summary']>['failures']>;

/** The schema types `mode` as a String; the API answers one of these two. */
export type IngestResult = Omit<IngestDocuments, 'mode'> & { mode: 'inline' | 'queue' };

export type DocumentSummary = Item<DocumentsQuery['documents']['edges']>['node'];

export type DocumentDetail = NonNullable<DocumentQuery['document']>;

export type Chunk = Item<DocumentDetail['chunks']>;

/** One retrieval channel's part in a hit; `channels` is JSON in the schema. */
export interface ChannelScore {
  score: number;
  rank: number;
  normalized: number;
}

/** `channels` and `rerank` are JSON in the schema; these are the shapes the API puts there. */
export type SearchHit = Omit<SdkSearchHit, 'channels' | 'rerank'> & {
  channels: Record<string, ChannelScore>;
  rerank: { score: number; features?: Record<string, number> } | null;
};

export type Citation = SdkCitation;

type GeneratedAnswerEvent = AnswerStreamSubscription['ragAnswerStream'];

/** The schema types `type` as a String; the stream sends one of these. */
export type AnswerEvent = Omit<GeneratedAnswerEvent, 'type'> & {
  type: 'stage' | 'delta' | 'citation' | 'final' | 'error';
};

/** One golden eval run (`evalRuns`); rates are fractions from 0 to 1. */
export type EvalRun = Item<EvalRunsQuery['evalRuns']>;

/** A run's parts (`evalRun`), asked for the chosen run only. */
export type EvalRunDetail = NonNullable<EvalRunQuery['evalRun']>;
