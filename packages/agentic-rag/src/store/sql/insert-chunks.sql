-- One statement per document whatever its chunk count: parallel arrays unnested into rows.
-- The embedding arrives as pgvector text ('[0.1,0.2,...]'); its real[] copy is cast from it.
INSERT INTO rag_chunks (
  document_id, workspace_id, chunk_id, chunk_index, text, token_count, start_offset, end_offset,
  section_path, metadata, embedding, embedding_array, embedding_model, embedding_dimensions
)
SELECT $1, $2, t.chunk_id, t.chunk_index, t.text, t.token_count, t.start_offset, t.end_offset,
       t.section_path, t.metadata::jsonb, t.embedding::vector, t.embedding::vector::real[], $3, $4
FROM unnest($5::text[], $6::int[], $7::text[], $8::int[], $9::int[], $10::int[], $11::text[], $12::text[], $13::text[])
  AS t(chunk_id, chunk_index, text, token_count, start_offset, end_offset, section_path, metadata, embedding)
