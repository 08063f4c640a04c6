-- 2026-11-29_3_postings_in_segments: the lexical segments are the only postings (issue 27).
--   rag_chunk_terms         dropped, with the trigger that deleted a chunk's postings: one row
--                           of ~60 bytes and two B-tree entries per posting (840 MB of a 2.7 GB
--                           database at 100k chunks, most of ingest's time). Search, typo evidence
--                           and surface forms read the segments; what needs a chunk's own lexemes
--                           (statistics on delete, relevance feedback, a backfill) reads the
--                           chunk's tsvector with rag_chunk_fields(), the same definition.
--   rag_lexical_ranges, rag_lexical_watermarks
--                           dropped: block-max bounds over the postings table, which nothing
--                           searches any more.
-- A workspace written before segments existed (lexical_segments = false) is put into segments
-- from its chunks' tsvectors at start-up (backfillLexicalSegments), as before.

DROP TRIGGER IF EXISTS rag_chunks_drop_postings ON rag_chunks;
DROP FUNCTION IF EXISTS rag_chunks_drop_postings();
DROP TABLE IF EXISTS rag_chunk_terms;
DROP TABLE IF EXISTS rag_lexical_ranges;
DROP TABLE IF EXISTS rag_lexical_watermarks;
