export { DecodedSegment, encodeSegment, SegmentFormatError } from './codec.js';
export type { Posting, SegmentInput, TermPostings } from './codec.js';
export { LexicalSegmentCache } from './read.js';
export type { LexicalIndexView } from './read.js';
export {
  backfillLexicalSegments,
  mergeSegments,
  SEGMENTS_PER_TIER,
  tierOf,
  workspacesWithoutSegments,
  writeSegment,
} from './write.js';
export type { PostingColumns } from './write.js';
