import { OPERATION_FIELDS, type ApiOperation, type OperationField } from './catalogue.js';

/**
 * BM25F over the operations of a workspace (Robertson and Zaragoza's simple BM25F): each field's
 * term frequency is length-normalised on its own and weighted, the weighted sum saturates once,
 * and rarer terms count more. A word in an operation's summary or path says more about what it
 * does than the same word deep in its description, and a description of 300 words should not
 * win by repeating a word three times. In memory: a spec of 1,200 operations is a few thousand
 * distinct terms.
 */

export type FieldWeights = Record<OperationField, number>;

/** How much a word in each field says about what the operation is for (set on the dev specs). */
export const FIELD_WEIGHTS: FieldWeights = {
  summary: 3,
  operationId: 1.5,
  path: 1.5,
  target: 1.5,
  tags: 1,
  description: 1,
  parameters: 0.3,
  requestFields: 0.3,
  tagDescriptions: 0.3,
};

export interface FieldIndexOptions {
  /** Word → the term it is indexed and searched under (a stemmer); null drops the word. */
  term: (word: string) => string | null;
  weights?: FieldWeights;
  k1?: number;
  b?: number;
}

export interface QueryTerm {
  term: string;
  /** 1 for a word of the question; less for an expansion (a synonym). */
  weight: number;
}

/** Per operation: field → term → frequency. */
type Postings = Map<string, Map<number, Float64Array>>;

export class OperationFieldIndex {
  readonly size: number;
  private readonly postings: Postings = new Map();
  private readonly lengths: Float64Array[];
  private readonly averages: Float64Array;
  private readonly weights: FieldWeights;
  private readonly k1: number;
  private readonly b: number;

  constructor(
    readonly operations: readonly ApiOperation[],
    private readonly options: FieldIndexOptions,
  ) {
    this.size = operations.length;
    this.weights = options.weights ?? FIELD_WEIGHTS;
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    const fields = OPERATION_FIELDS.length;
    this.lengths = operations.map(() => new Float64Array(fields));
    this.averages = new Float64Array(fields);
    operations.forEach((operation, index) => {
      OPERATION_FIELDS.forEach((field, f) => {
        const terms = this.terms(operation.fields[field]);
        this.lengths[index]![f] = terms.length;
        this.averages[f]! += terms.length;
        for (const term of terms) {
          let byOperation = this.postings.get(term);
          if (!byOperation) this.postings.set(term, (byOperation = new Map()));
          let counts = byOperation.get(index);
          if (!counts) byOperation.set(index, (counts = new Float64Array(fields)));
          counts[f]! += 1;
        }
      });
    });
    for (let f = 0; f < fields; f++) this.averages[f] = this.size > 0 ? this.averages[f]! / this.size : 0;
  }

  /** The terms of a text, as indexed. */
  terms(text: string): string[] {
    const found: string[] = [];
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const term = this.options.term(word);
      if (term) found.push(term);
    }
    return found;
  }

  /** Operations holding the term in any field. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Each operation's BM25F score for the query terms (0 where none occurs). */
  score(query: readonly QueryTerm[]): Float64Array {
    const scores = new Float64Array(this.size);
    for (const { term, weight } of query) {
      const byOperation = this.postings.get(term);
      if (!byOperation || weight <= 0) continue;
      const idf = this.idf(term);
      for (const [index, counts] of byOperation) {
        let tf = 0;
        OPERATION_FIELDS.forEach((field, f) => {
          if (counts[f] === 0) return;
          const average = this.averages[f]! || 1;
          const norm = 1 - this.b + (this.b * this.lengths[index]![f]!) / average;
          tf += (this.weights[field] * counts[f]!) / norm;
        });
        scores[index]! += weight * idf * (tf / (this.k1 + tf));
      }
    }
    return scores;
  }

  /** Whether the operation holds the term in the given field. */
  has(index: number, term: string, field: OperationField): boolean {
    const counts = this.postings.get(term)?.get(index);
    return counts !== undefined && counts[OPERATION_FIELDS.indexOf(field)]! > 0;
  }

  /** The fields of an operation that hold the term. */
  fieldsOf(index: number, term: string): OperationField[] {
    const counts = this.postings.get(term)?.get(index);
    return counts ? OPERATION_FIELDS.filter((_, f) => counts[f]! > 0) : [];
  }
}
