-- What the slow ingest stages produced, by stage, producer and input: the entity facts an
-- extractor found in a document, the questions a model wrote for a chunk (ingest-side HyDE).
-- Stage jobs write here and the document's final write reads from here, so a big document's
-- work can be spread over workers, and a retried job does not pay for it twice.
CREATE TABLE rag_stage_outputs (
  stage      text NOT NULL,
  producer   text NOT NULL,
  input_hash text NOT NULL,
  output     jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stage, producer, input_hash)
);
