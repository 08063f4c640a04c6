import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../../test/backends.js';
import { loadConfig } from '../../config/index.js';
import type { Sql } from '../../db/index.js';
import { DeterministicEmbedder } from '../../embed/index.js';
import { ErrorCode } from '../../errors/index.js';
import { createRetriever } from '../../retrieve/index.js';
import { CorpusStore } from '../../store/index.js';
import { IngestPipeline } from '../pipeline.js';

// Fake credentials, generated for this test: format-valid, never issued by AWS.
const ACCESS_KEY_ID = 'AKIA4HQX7TZ2LMN5PRVW';
const SECRET_ACCESS_KEY = 'q7Vd2Lk9Xw4Tz8Rm1Bn6Yc3Hf5Js0Pa+Ge/Ku2Wo';
// A real RSA key block, made now and thrown away: the shape a leaked key has.
const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString()
  .trim();
const KEY_BODY_LINE = PRIVATE_KEY.split('\n')[3]!;

const RUNBOOK = `# Deploying the relay

## Credentials

The relay uploads its reports to the archive bucket with these credentials:

\`\`\`ini
[relay]
aws_access_key_id = ${ACCESS_KEY_ID}
aws_secret_access_key = ${SECRET_ACCESS_KEY}
\`\`\`

## SSH

The archive host accepts only this key for the relay user:

${PRIVATE_KEY}

Rotate the key after every relay deployment.
`;

const CLEAN_RUNBOOK = `# Deploying the relay

## Credentials

The relay reads its archive credentials from the secret store at start-up.
`;

const SECRETS = [ACCESS_KEY_ID, SECRET_ACCESS_KEY, KEY_BODY_LINE, 'BEGIN RSA PRIVATE KEY'];

describe.each(testBackends())('secrets at ingest on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  let workspace: string;
  const embedder = new DeterministicEmbedder();
  const pipeline = (secrets?: 'redact' | 'refuse' | 'off') =>
    new IngestPipeline({
      store,
      embedder,
      maxTokens: 80,
      overlapTokens: 10,
      ...(secrets ? { secrets } : {}),
    });

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
  });
  afterAll(async () => {
    await sql.close();
  });
  beforeEach(() => {
    workspace = uniqueWorkspace('secrets');
  });
  afterEach(async () => {
    await dropWorkspace(sql, workspace);
  });

  const storedText = async () => {
    const chunks = await sql.query<{ text: string }>('SELECT text FROM rag_chunks WHERE workspace_id = $1', [
      workspace,
    ]);
    const documents = await sql.query<{ content: string; title: string | null; metadata: unknown }>(
      'SELECT content, title, metadata FROM rag_documents WHERE workspace_id = $1',
      [workspace],
    );
    return {
      chunks: chunks.rows.map((row) => row.text),
      all: [...chunks.rows.map((row) => row.text), ...documents.rows.map((row) => JSON.stringify(row))].join(
        '\n',
      ),
    };
  };

  it('redacts by default: no stored chunk, document or search result holds the secrets', async () => {
    const summary = await pipeline().ingestInline(workspace, [{ id: 'ops/relay.md', content: RUNBOOK }]);
    expect(summary.failures).toEqual([]);
    expect(summary.documents.added).toBe(1);
    expect(summary.redactions).toEqual([
      { sourcePath: 'ops/relay.md', rules: ['aws', 'privatekey'], count: 3 },
    ]);

    const stored = await storedText();
    expect(stored.chunks.length).toBeGreaterThan(1);
    for (const secret of SECRETS) expect(stored.all).not.toContain(secret);
    expect(stored.chunks.join('\n')).toContain('aws_access_key_id = [REDACTED:aws]');
    expect(stored.chunks.join('\n')).toContain('[REDACTED:privatekey]');
    // The text around the secrets is still there to be found.
    expect(stored.chunks.join('\n')).toContain('Rotate the key after every relay deployment.');

    const document = await store.getDocument(workspace, 'ops/relay.md');
    expect(document?.metadata.redactions).toEqual([
      { rule: 'aws', count: 2 },
      { rule: 'privatekey', count: 1 },
    ]);

    const retriever = createRetriever(loadConfig({}), sql, embedder);
    for (const query of [ACCESS_KEY_ID, SECRET_ACCESS_KEY, KEY_BODY_LINE, 'relay credentials private key']) {
      const { hits } = await retriever.retrieve({ workspaceId: workspace, query, k: 10 });
      const returned = hits.map((hit) => hit.text).join('\n');
      for (const secret of SECRETS) expect(returned).not.toContain(secret);
    }
    const { hits } = await retriever.retrieve({ workspaceId: workspace, query: 'relay credentials', k: 10 });
    expect(hits.length).toBeGreaterThan(0);

    // Unchanged on a second run, and still reported: the redaction is what is stored.
    const again = await pipeline().ingestInline(workspace, [{ id: 'ops/relay.md', content: RUNBOOK }]);
    expect(again.documents.unchanged).toBe(1);
    expect(again.redactions).toHaveLength(1);
  });

  it('refuses: the document is not stored, the failure names the rules, an older version stays', async () => {
    const refusing = pipeline('refuse');
    const first = await refusing.ingestInline(workspace, [{ id: 'ops/relay.md', content: RUNBOOK }]);
    expect(first.documents).toMatchObject({ added: 0, failed: 1 });
    expect(first.failures).toEqual([
      {
        sourcePath: 'ops/relay.md',
        code: ErrorCode.SECRET_REFUSED,
        message: expect.stringContaining('aws, privatekey'),
      },
    ]);
    for (const secret of SECRETS) expect(first.failures[0]!.message).not.toContain(secret);
    expect(await store.getDocument(workspace, 'ops/relay.md')).toBeNull();
    expect((await storedText()).all).toBe('');

    // A clean version is stored; an edit that adds the secrets is refused and the clean one stays.
    await refusing.ingestInline(workspace, [{ id: 'ops/relay.md', content: CLEAN_RUNBOOK }]);
    const before = await store.documentContent(workspace, 'ops/relay.md');
    const edited = await refusing.ingestInline(workspace, [{ id: 'ops/relay.md', content: RUNBOOK }]);
    expect(edited.failures.map((failure) => failure.code)).toEqual([ErrorCode.SECRET_REFUSED]);
    expect(edited.documents.removed).toBe(0);
    expect(await store.documentContent(workspace, 'ops/relay.md')).toBe(before);
    for (const secret of SECRETS) expect((await storedText()).all).not.toContain(secret);
  });

  it('refuses a queued file the same way, as a failure rather than a retryable error', async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-secrets-'));
    try {
      await writeFile(path.join(root, 'relay.md'), RUNBOOK);
      const summary = await pipeline('refuse').ingestFile(workspace, root, 'relay.md');
      expect(summary.failures.map((failure) => failure.code)).toEqual([ErrorCode.SECRET_REFUSED]);
      // Stage jobs see what the ingest would store: an extractor with a cold cache is handed the text.
      const coldExtractor = {
        name: 'cold',
        extract: async () => ({ entities: [], relations: [] }),
        isCached: async () => false,
      };
      const staged = (secrets: 'redact' | 'refuse') =>
        new IngestPipeline({
          store,
          embedder,
          maxTokens: 80,
          overlapTokens: 10,
          secrets,
          extractors: [coldExtractor],
        });
      const source = { type: 'file', root, relativePath: 'relay.md' } as const;
      expect(await staged('refuse').pendingWork(workspace, source)).toEqual([]);
      const pending = await staged('redact').pendingWork(workspace, source);
      const text = pending.map((work) => work.extraction?.text ?? '').join('\n');
      expect(text).toContain('[REDACTED:aws]');
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('stores the text as it is when scanning is off', async () => {
    await pipeline('off').ingestInline(workspace, [{ id: 'ops/relay.md', content: RUNBOOK }]);
    expect((await storedText()).all).toContain(ACCESS_KEY_ID);
  });
});
