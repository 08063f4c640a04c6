import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { asLocalOperator, cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';

const HELP = `Usage: pnpm rag:search "query" [options]

Hybrid search over a workspace's chunks: BM25 and dense channels, fused, then reranked.

Options:
  --workspace ID       workspace to search (default: AGENTIC_RAG_WORKSPACE, "demo")
  --k N                number of hits, 1-50 (default: AGENTIC_RAG_TOPK)
  --filter KEY=VALUE   narrow the search; repeatable. Keys: sourcePrefix, kind, chapter,
                       section, page_number, entity_type
  --channel NAME       run one channel alone: vector or lexical
  --fusion NAME        weighted or rrf (default: HYBRID_FUSION)
  --no-rerank          keep the fused order
  --explain            show each hit's per-channel scores and ranks, rerank features and timings
  --context            also report the context assembled from the hits within
                       CONTEXT_TOKEN_LIMIT and RETRIEVAL_MAX_TOTAL_CHUNKS
  --json               print the full result as JSON on stdout
  -h, --help           show this help`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      k: { type: 'string' },
      filter: { type: 'string', multiple: true },
      channel: { type: 'string' },
      fusion: { type: 'string' },
      'no-rerank': { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      context: { type: 'boolean', default: false },
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
  const workspaceId = values.workspace ?? config.AGENTIC_RAG_WORKSPACE;
  const filters = Object.fromEntries(
    (values.filter ?? []).map((pair) => {
      const [key, ...rest] = pair.split('=');
      if (!key || rest.length === 0)
        throw new RagError(ErrorCode.INVALID_INPUT, `--filter expects KEY=VALUE, got "${pair}"`);
      const value = rest.join('=');
      return [key, key === 'page_number' && /^\d+$/.test(value) ? Number(value) : value];
    }),
  );
  const { channel, fusion } = values;
  if (channel !== undefined && channel !== 'vector' && channel !== 'lexical') {
    throw new RagError(ErrorCode.INVALID_INPUT, '--channel must be vector or lexical');
  }
  if (fusion !== undefined && fusion !== 'weighted' && fusion !== 'rrf') {
    throw new RagError(ErrorCode.INVALID_INPUT, '--fusion must be weighted or rrf');
  }
  const logger = cliLogger(config, values.json ? 'quiet' : 'normal');
  // The operator at the machine: the service validates, checks the workspace exists, scopes the reads.
  return asLocalOperator({ config, logger }, async (service, caller) => {
    const result = await service.search(caller, {
      workspaceId,
      query,
      k,
      filters,
      ...(channel ? { channels: [channel] } : {}),
      ...(fusion ? { fusion } : {}),
      rerank: !values['no-rerank'],
      ...(values.context ? { context: true } : {}),
    });
    const { context } = result;
    if (values.json) {
      console.log(JSON.stringify(result));
      return EXIT.ok;
    }
    if (result.correctedQuery) {
      const changes = result.corrections
        .map((correction) => `${correction.from} → ${correction.to}`)
        .join(', ');
      console.log(`Searched for: ${result.correctedQuery}  (corrected: ${changes})`);
    }
    for (const warning of result.stats.warnings) console.log(`warning: ${warning}`);
    if (result.hits.length === 0) console.log(`No results for "${query}" in workspace "${workspaceId}".`);
    result.hits.forEach((hit, index) => {
      const where = hit.sectionPath ? ` § ${hit.sectionPath}` : '';
      console.log(`${index + 1}. ${hit.title ?? hit.sourcePath}${where}  [${hit.score.toFixed(3)}]`);
      console.log(`   ${hit.sourcePath}:${hit.startOffset}-${hit.endOffset}`);
      if (values.explain) {
        const channels = Object.entries(hit.channels)
          .map(([name, channel]) => `${name} ${channel.score.toFixed(4)} (#${channel.rank})`)
          .join('  ');
        console.log(`   channels: ${channels}  fused ${hit.fusedScore.toFixed(3)}`);
        if (hit.rerank?.features) {
          const features = Object.entries(hit.rerank.features)
            .map(([name, value]) => `${name} ${value.toFixed(2)}`)
            .join('  ');
          console.log(`   rerank:   ${features}`);
        }
      }
      console.log(`   ${hit.text.replace(/\s+/g, ' ').slice(0, 160)}${hit.text.length > 160 ? '…' : ''}`);
    });
    if (values.explain) {
      const stages = result.stats.stages.map((stage) => `${stage.name} ${stage.ms.toFixed(1)} ms`).join(', ');
      console.log(
        `candidates: vector ${result.stats.candidates.vector}, lexical ${result.stats.candidates.lexical}; reranker: ${result.stats.reranker ?? 'none'}; ${stages}`,
      );
    }
    if (context) {
      const limits =
        context.stats.limitsHit.length > 0 ? ` (limited by ${context.stats.limitsHit.join(', ')})` : '';
      const partial = context.stats.partial ? ' PARTIAL (reference expansion timed out)' : '';
      console.log(
        `context: ${context.primary.length} chunks + ${context.references.length} referenced, ${context.totalTokens} tokens${limits}${partial}`,
      );
      for (const reference of context.references) {
        console.log(
          `  ↳ ${reference.sourcePath} (depth ${reference.reference!.depth}, from ${reference.reference!.from})`,
        );
      }
    }
    return EXIT.ok;
  });
}

runCli(main);
