// `pnpm rag:jobs` is named now; job and dead-letter inspection arrives with the queue work (issue #6).
process.stderr.write('pnpm rag:jobs: not implemented yet (the job queue lands with issue #6).\n');
process.exitCode = 1;
