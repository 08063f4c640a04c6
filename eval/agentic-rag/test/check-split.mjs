// Checks the held-out test split against the sample corpus, without running retrieval:
//   node --import tsx eval/agentic-rag/test/check-split.mjs
// Every file is parsed by the same loaders ingestion uses, so a fact is checked against the text a
// document actually stores (an OpenAPI operation's rendered text, a FAQ record's `text`), not
// against raw YAML or HTML. Exits non-zero on any problem.
import console from 'node:console';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { loadGoldenDataset } from '../../../packages/bench/src/eval/index.ts';
import { loaderFor, normalizeText } from '../../../packages/agentic-rag/src/ingest/loaders/index.ts';

const CORPUS = 'simulated_ingestion';
const SPLIT_FILES =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['eval/agentic-rag/test/golden-test.jsonl', 'eval/agentic-rag/test/api-free-wording.jsonl'];
const OVERLAP_LIMIT = Number(process.env.OVERLAP_LIMIT ?? 0.5);
const DEV_FILE = 'eval/agentic-rag/golden.jsonl';
const OPERATION_ID = /#paths(\/.*)\/(get|post|put|patch|delete)$/;

function walk(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

// Document id -> stored text; file path -> texts of all its documents.
const documentText = new Map();
const fileTexts = new Map();
const rawText = new Map();
for (const path of walk(CORPUS)) {
  const loader = loaderFor(path);
  if (!loader) continue;
  const text = normalizeText(readFileSync(path, 'utf8'));
  rawText.set(path, text);
  const { documents } = loader({ sourcePath: path, text });
  fileTexts.set(
    path,
    documents.map((document) => document.text),
  );
  for (const document of documents) documentText.set(document.sourcePath, document.text);
}

const operations = [...documentText.keys()].filter((id) => OPERATION_ID.test(id));
const problems = [];
const normalise = (question) =>
  question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const words = (question) =>
  new Set(
    normalise(question)
      .split(' ')
      .filter((word) => word.length > 2),
  );

function textsOf(source) {
  if (source.includes('#')) return documentText.has(source) ? [documentText.get(source)] : undefined;
  return fileTexts.get(source);
}

const dev = await loadGoldenDataset(DEV_FILE);
const seenQuestions = new Map(dev.map((entry) => [normalise(entry.question), `dev ${entry.id}`]));
// Earlier rows to compare wording with: the dev set and every test row read so far.
const earlier = dev.map((entry) => ({ label: `dev ${entry.id}`, words: words(entry.question) }));

for (const file of SPLIT_FILES) {
  const entries = await loadGoldenDataset(file);
  const counts = {};
  const askedOperations = new Set();
  let withoutEndpointWord = 0;
  for (const entry of entries) {
    const at = `${file} ${entry.id}`;
    counts[entry.category] = (counts[entry.category] ?? 0) + 1;

    const key = normalise(entry.question);
    if (seenQuestions.has(key)) problems.push(`${at}: same question as ${seenQuestions.get(key)}`);
    seenQuestions.set(key, `${file} ${entry.id}`);
    // Near-copies of an earlier question: report ids and overlap only, never the dev wording.
    const own = words(entry.question);
    for (const other of earlier) {
      const shared = [...own].filter((word) => other.words.has(word)).length;
      const jaccard = shared / (own.size + other.words.size - shared || 1);
      if (jaccard >= OVERLAP_LIMIT)
        problems.push(`${at}: word overlap ${jaccard.toFixed(2)} with ${other.label}`);
    }
    earlier.push({ label: at, words: own });

    if (entry.mustRefuse) {
      if (entry.expectedSources.length || entry.expectedFacts.length)
        problems.push(`${at}: a refusal row has sources or facts`);
      continue;
    }
    if (entry.expectedFacts.length < 1 || entry.expectedFacts.length > 3)
      problems.push(`${at}: ${entry.expectedFacts.length} facts (want 1-3)`);

    const sourceTexts = new Map();
    for (const source of entry.expectedSources) {
      const texts = textsOf(source);
      if (!texts) problems.push(`${at}: unknown document ${source}`);
      else sourceTexts.set(source, texts.join('\n').toLowerCase());
    }
    const holders = entry.expectedFacts.map((fact) => {
      const found = [...sourceTexts]
        .filter(([, text]) => text.includes(fact.toLowerCase()))
        .map(([id]) => id);
      if (found.length === 0) {
        const inRaw = entry.expectedSources.some((source) =>
          rawText.get(source.split('#')[0])?.toLowerCase().includes(fact.toLowerCase()),
        );
        problems.push(`${at}: fact "${fact}" in no expected source${inRaw ? ' (only in a raw file)' : ''}`);
      }
      return new Set(found);
    });

    if (entry.category === 'multi-hop') {
      const oneSourceHoldsAll = entry.expectedSources.some((source) =>
        holders.every((set) => set.has(source)),
      );
      if (oneSourceHoldsAll) problems.push(`${at}: multi-hop facts all come from one source`);
    }

    if (entry.category === 'endpoint') {
      const [source] = entry.expectedSources;
      const match = entry.expectedSources.length === 1 ? OPERATION_ID.exec(source) : null;
      if (!match || !entry.precisionSet) {
        problems.push(`${at}: an endpoint row needs precision_set and exactly one operation id`);
        continue;
      }
      const signature = `${match[2].toUpperCase()} ${match[1]}`;
      askedOperations.add(source);
      if (!documentText.get(source)?.startsWith(`# ${signature} `))
        problems.push(`${at}: ${source} is not the operation ${signature}`);
      if (entry.expectedFacts[0] !== signature) problems.push(`${at}: first fact should be "${signature}"`);
      if (!/\bendpoints?\b/i.test(entry.question)) withoutEndpointWord += 1;
    } else if (entry.precisionSet) problems.push(`${at}: precision_set outside the endpoint category`);
  }

  const endpointRows = counts.endpoint ?? 0;
  const missing = operations.filter((id) => !askedOperations.has(id));
  console.log(`${file}: ${entries.length} rows`, counts);
  console.log(
    `  endpoint rows without the word "endpoint": ${withoutEndpointWord}/${endpointRows}; ` +
      `operations asked: ${askedOperations.size}/${operations.length}` +
      (missing.length ? ` (missing: ${missing.map((id) => id.split('#')[1]).join(', ')})` : ''),
  );
}

if (problems.length > 0) {
  console.log(`${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
} else console.log('OK: every fact occurs in an expected source, every id resolves');
