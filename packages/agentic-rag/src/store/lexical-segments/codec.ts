/**
 * The byte format of one lexical segment: the BM25F postings of the chunks one write batch (or
 * one merge) stored, written once and never changed. Layout, every integer an unsigned LEB128
 * varint:
 *
 *   version
 *   chunk count, then the chunk ids ascending (the first whole, the rest as deltas), then each
 *   chunk's length in lexemes (BM25's |c|, stored once per chunk rather than once per posting)
 *   term count, then per term in lexeme order: the lexeme's UTF-8 byte length and bytes, its
 *   posting count, the byte length of its postings
 *   the postings, term after term, each posting: the chunk's position in the chunk table as a
 *   delta from the previous posting's (the first whole), tf (body), tf in the heading trail, tf
 *   in the document's title
 *
 * Deltas and small frequencies fit a byte each, so a posting costs ~4 bytes, against ~60 for a
 * B-tree row of the postings table segments replaced. The dictionary is read when a segment is opened; a term's
 * postings are decoded only when a query asks for it, and kept.
 */

const VERSION = 1;

/** One posting as written: a chunk id and its three field frequencies. */
export interface Posting {
  chunkId: number;
  tf: number;
  tfHeading: number;
  tfTitle: number;
}

export interface SegmentInput {
  /** Every chunk of the segment with its length in lexemes. */
  chunks: ReadonlyArray<{ id: number; length: number }>;
  /** Postings by lexeme, in any order. */
  terms: ReadonlyMap<string, readonly Posting[]>;
}

/**
 * A term's postings, decoded: positions into the segment's chunk table (ascending) and the three
 * frequencies, with the maxima and the shortest chunk length over them, from which a search bounds
 * what the term can add to any chunk's score (segment-search.ts).
 */
export interface TermPostings {
  positions: Int32Array;
  tf: Int32Array;
  tfHeading: Int32Array;
  tfTitle: Int32Array;
  maxTf: number;
  maxTfHeading: number;
  maxTfTitle: number;
  minLength: number;
}

export class SegmentFormatError extends Error {}

export function encodeSegment(input: SegmentInput): Uint8Array {
  const chunks = [...input.chunks].sort((one, other) => one.id - other.id);
  const position = new Map<number, number>();
  chunks.forEach((chunk, index) => {
    if (position.has(chunk.id)) throw new SegmentFormatError(`chunk ${chunk.id} appears twice`);
    position.set(chunk.id, index);
  });
  const out = new ByteWriter();
  out.varint(VERSION);
  out.varint(chunks.length);
  let previous = 0;
  for (const chunk of chunks) {
    out.varint(chunk.id - previous);
    previous = chunk.id;
  }
  for (const chunk of chunks) out.varint(chunk.length);

  const lexemes = [...input.terms.keys()].sort();
  const bodies = lexemes.map((lexeme) => {
    const postings = [...input.terms.get(lexeme)!].sort((one, other) => one.chunkId - other.chunkId);
    const body = new ByteWriter();
    let last = 0;
    for (const posting of postings) {
      const at = position.get(posting.chunkId);
      if (at === undefined) throw new SegmentFormatError(`posting of "${lexeme}" names an unknown chunk`);
      body.varint(at - last);
      last = at;
      body.varint(posting.tf);
      body.varint(posting.tfHeading);
      body.varint(posting.tfTitle);
    }
    return { count: postings.length, bytes: body.bytes() };
  });
  out.varint(lexemes.length);
  const encoder = new TextEncoder();
  lexemes.forEach((lexeme, index) => {
    const name = encoder.encode(lexeme);
    out.varint(name.length);
    out.raw(name);
    out.varint(bodies[index]!.count);
    out.varint(bodies[index]!.bytes.length);
  });
  for (const body of bodies) out.raw(body.bytes);
  return out.bytes();
}

/** An opened segment: its chunk table and dictionary; postings decoded on demand and kept. */
export class DecodedSegment {
  readonly chunkIds: Float64Array;
  readonly lengths: Int32Array;
  readonly byteLength: number;
  private readonly dictionary = new Map<string, { offset: number; count: number; end: number }>();
  private readonly decoded = new Map<string, TermPostings>();

  constructor(private readonly bytes: Uint8Array) {
    this.byteLength = bytes.length;
    const reader = new ByteReader(bytes);
    const version = reader.varint();
    if (version !== VERSION) throw new SegmentFormatError(`segment version ${version} is not ${VERSION}`);
    const chunkCount = reader.varint();
    this.chunkIds = new Float64Array(chunkCount);
    this.lengths = new Int32Array(chunkCount);
    let id = 0;
    for (let index = 0; index < chunkCount; index++) this.chunkIds[index] = id += reader.varint();
    for (let index = 0; index < chunkCount; index++) this.lengths[index] = reader.varint();
    const termCount = reader.varint();
    const decoder = new TextDecoder();
    const entries: Array<{ lexeme: string; count: number; size: number }> = [];
    for (let index = 0; index < termCount; index++) {
      const nameLength = reader.varint();
      const lexeme = decoder.decode(reader.slice(nameLength));
      entries.push({ lexeme, count: reader.varint(), size: reader.varint() });
    }
    let offset = reader.offset;
    for (const entry of entries) {
      this.dictionary.set(entry.lexeme, { offset, count: entry.count, end: offset + entry.size });
      offset += entry.size;
    }
    if (offset !== bytes.length)
      throw new SegmentFormatError('segment postings do not end where its bytes do');
  }

  get chunkCount(): number {
    return this.chunkIds.length;
  }

  /** The lexemes the segment holds, in order. */
  lexemes(): IterableIterator<string> {
    return this.dictionary.keys();
  }

  postings(lexeme: string): TermPostings | undefined {
    const cached = this.decoded.get(lexeme);
    if (cached) return cached;
    const entry = this.dictionary.get(lexeme);
    if (!entry) return undefined;
    const reader = new ByteReader(this.bytes, entry.offset);
    const postings: TermPostings = {
      positions: new Int32Array(entry.count),
      tf: new Int32Array(entry.count),
      tfHeading: new Int32Array(entry.count),
      tfTitle: new Int32Array(entry.count),
      maxTf: 0,
      maxTfHeading: 0,
      maxTfTitle: 0,
      minLength: Number.POSITIVE_INFINITY,
    };
    let at = 0;
    for (let index = 0; index < entry.count; index++) {
      postings.positions[index] = at += reader.varint();
      const tf = (postings.tf[index] = reader.varint());
      const tfHeading = (postings.tfHeading[index] = reader.varint());
      const tfTitle = (postings.tfTitle[index] = reader.varint());
      if (tf > postings.maxTf) postings.maxTf = tf;
      if (tfHeading > postings.maxTfHeading) postings.maxTfHeading = tfHeading;
      if (tfTitle > postings.maxTfTitle) postings.maxTfTitle = tfTitle;
      const length = this.lengths[at];
      if (length === undefined) throw new SegmentFormatError(`postings of "${lexeme}" name an unknown chunk`);
      if (length < postings.minLength) postings.minLength = length;
    }
    if (reader.offset !== entry.end) throw new SegmentFormatError(`postings of "${lexeme}" are malformed`);
    this.decoded.set(lexeme, postings);
    return postings;
  }
}

class ByteWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new SegmentFormatError(`${value} is not a non-negative integer`);
    this.reserve(8);
    // Beyond 2^31 the bitwise operators would truncate: divide instead.
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

class ByteReader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset = 0,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.offset >= this.bytes.length) throw new SegmentFormatError('segment ends inside a number');
      const byte = this.bytes[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new SegmentFormatError('segment number is too long');
    }
  }

  slice(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length)
      throw new SegmentFormatError('segment ends inside a lexeme');
    const part = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return part;
  }
}
