// The BullMQ workers arrive with the data-plane work (issue #6). Until then ingestion runs inline
// in the API and in `pnpm rag:ingest`; this entry point says so instead of pretending to work.
process.stderr.write(
  'pnpm worker: the queue workers are not implemented yet; ingestion runs inline (pnpm rag:ingest, or the API at start).\n',
);
process.exitCode = 1;
