-- 2026-11-27_3_inline_vectors: a chunk's vector is stored in its row, not in TOAST.
-- pgvector stores vectors EXTERNAL: a 768-d vector (3 KB) pushed each row past the 2 KB TOAST
-- threshold, so every vector lived out of line, and building the HNSW index, an exact scan and
-- each HNSW candidate read it through the TOAST index. Measured on 5,000 chunks: the build takes
-- 2.7-3.0 s instead of 4.2-4.5 s, and the inserts 127 ms instead of 215 ms. PLAIN rather than MAIN:
-- MAIN first tries to compress the vector on every insert (1,028 ms for the same rows).
-- A row must then fit in a page (8 kB) with the vector in it: fine up to about 1,900 dimensions; a
-- migration to a larger vector must set the storage back to EXTERNAL. Existing rows keep their
-- storage until they are rewritten.
ALTER TABLE rag_chunks ALTER COLUMN embedding SET STORAGE PLAIN;
