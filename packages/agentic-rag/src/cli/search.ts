import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { search } from '../retrieve/index.js';
import { createRuntime } from '../runtime/index.js';
import { assertWorkspaceId } from '../store/index.js';
import { cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';

const HELP = `Usage: pnpm rag:search "query" [options]

Hybrid search (dense + lexical, fused) over a workspace's chunks.

Options:
  --workspace ID    workspace to search (default: AGENTIC_RAG_WORKSPACE, "demo")
  --k N             number of hits, 1-50 (default: AGENTIC_RAG_TOPK)
  --explain         show each hit's per-channel scores and ranks
  --json            print the hits as JSON on stdout
  -h, --help        show this help`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      k: { type: 'string' },
      explain: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  const query = positionals.join(' ').trim();
  if (!query)
    throw new RagError(ErrorCode.INVALID_INPUT, 'a query is required: pnpm rag:search "your question"');
  const config = cliConfig();
  const k = values.k === undefined ? config.AGENTIC_RAG_TOPK : Number(values.k);
  if (!Number.isInteger(k) || k < 1 || k > 50)
    throw new RagError(ErrorCode.INVALID_INPUT, '--k must be an integer from 1 to 50');
  const workspaceId = values.workspace ?? config.AGENTIC_RAG_WORKSPACE;
  assertWorkspaceId(workspaceId);
  const runtime = await createRuntime({
    config,
    logger: cliLogger(config, values.json ? 'quiet' : 'normal'),
  });
  try {
    const hits = await search(runtime.sql, runtime.embedder, {
      workspaceId,
      query,
      k,
      weights: { vector: config.HYBRID_VECTOR_WEIGHT, lexical: config.HYBRID_LEXICAL_WEIGHT },
    });
    if (values.json) {
      console.log(JSON.stringify({ query, workspaceId, hits }));
      return EXIT.ok;
    }
    if (hits.length === 0) console.log(`No results for "${query}" in workspace "${workspaceId}".`);
    hits.forEach((hit, index) => {
      const where = hit.sectionPath ? ` § ${hit.sectionPath}` : '';
      console.log(`${index + 1}. ${hit.title ?? hit.sourcePath}${where}  [${hit.score.toFixed(3)}]`);
      console.log(`   ${hit.sourcePath}:${hit.startOffset}-${hit.endOffset}`);
      if (values.explain) {
        const channels = Object.entries(hit.channels)
          .map(([name, channel]) => `${name} ${channel.score.toFixed(4)} (#${channel.rank})`)
          .join('  ');
        console.log(`   channels: ${channels}`);
      }
      console.log(`   ${hit.text.replace(/\s+/g, ' ').slice(0, 160)}${hit.text.length > 160 ? '…' : ''}`);
    });
    return EXIT.ok;
  } finally {
    await runtime.close();
  }
}

runCli(main);
