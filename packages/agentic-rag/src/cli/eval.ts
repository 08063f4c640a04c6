// `pnpm rag:eval` is named now so scripts and docs can rely on it; the evaluation harness (golden
// set and BEIR mode) arrives with the retrieval and evaluation work (issues #3 and #7).
process.stderr.write('pnpm rag:eval: not implemented yet (retrieval evaluation lands with issue #3).\n');
process.exitCode = 1;
