import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import {
  NumberedEntityExtractor,
  OfflineEntityExtractor,
  PostgresGraphStore,
  type GraphStore,
} from '../graph/index.js';
import { CorpusStore } from '../store/index.js';
import { IngestPipeline } from './pipeline.js';

const PLANNING = `# Planning notes

A partially observable Markov decision process (POMDP) keeps a belief over states.
Create the depot with \`POST /locations\` before planning routes for Northwind Freight.
`;

const BELIEFS = `# Beliefs

The POMDP belief update is Algorithm 19.2, which uses Equation 19.5.
`;

const SPEC = `openapi: 3.0.3
info:
  title: Depot API
  version: 1.0.0
paths:
  /locations:
    post:
      operationId: createLocation
      summary: Create a location
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Location'
      responses:
        '201':
          description: Created
components:
  schemas:
    Location:
      type: object
      properties:
        name:
          type: string
`;

describe.each(testBackends())('graph facts through ingestion on $name', (backend) => {
  let sql: Sql;
  let graph: GraphStore;
  let store: CorpusStore;
  let pipeline: IngestPipeline;
  let root: string;
  let workspaceId: string;

  const ingest = (prune = false) => pipeline.ingestSources({ workspaceId, sources: [root], prune });
  const ids = async (type: string) =>
    (await graph.findEntities({ workspaceId, type })).map((entity) => entity.id);

  /** Every entity is supported by a mention or a relation, and every mention by a stored chunk. */
  const expectNoStaleFacts = async () => {
    const orphans = await sql.query<{ id: number }>(
      `SELECT e.id FROM rag_entities e
       WHERE e.workspace_id = $1
         AND NOT EXISTS (SELECT 1 FROM rag_entity_mentions m WHERE m.entity_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM rag_relations r WHERE r.from_entity_id = e.id OR r.to_entity_id = e.id)`,
      [workspaceId],
    );
    expect(orphans.rows).toEqual([]);
    const dangling = await sql.query<{ id: number }>(
      `SELECT e.id FROM rag_entities e WHERE e.workspace_id = $1 AND e.defined_by IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM rag_documents d WHERE d.id = e.defined_by)`,
      [workspaceId],
    );
    expect(dangling.rows).toEqual([]);
  };

  beforeEach(async () => {
    sql = await backend.open();
    graph = new PostgresGraphStore(sql);
    store = new CorpusStore(sql, { graph });
    pipeline = new IngestPipeline({
      store,
      embedder: new DeterministicEmbedder(),
      maxTokens: 200,
      overlapTokens: 20,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
    });
    workspaceId = uniqueWorkspace('facts');
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-facts-'));
    await writeFile(path.join(root, 'planning.md'), PLANNING);
    await writeFile(path.join(root, 'beliefs.md'), BELIEFS);
    await writeFile(path.join(root, 'api.yaml'), SPEC);
  });

  afterEach(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('links entities to the chunks that mention them, across formats', async () => {
    await ingest();
    expect(await ids('Acronym')).toContain('Acronym:POMDP');
    expect(await ids('Algorithm')).toContain('Algorithm:19.2');
    const mentions = await graph.mentions({ workspaceId, entityIds: ['Acronym:POMDP'] });
    expect(new Set(mentions.map((mention) => mention.sourcePath))).toEqual(
      new Set([`${path.basename(root)}/planning.md`, `${path.basename(root)}/beliefs.md`]),
    );
    // The spec's $ref graph: the endpoint references the schema it creates.
    const around = await graph.neighbourhood({
      workspaceId,
      seeds: ['Endpoint:POST /locations'],
      hops: 1,
      relationTypes: ['REFERENCES'],
    });
    expect(around.entities.map((entity) => entity.id)).toContain('Schema:location');
    await expectNoStaleFacts();
  });

  it('a changed or deleted document takes its facts with it, and nothing is left orphaned', async () => {
    await ingest();
    const before = await graph.stats({ workspaceId });
    // Unchanged re-ingest: the graph is exactly as it was.
    await ingest();
    expect(await graph.stats({ workspaceId })).toEqual(before);

    // The planning note no longer mentions Northwind Freight.
    await writeFile(
      path.join(root, 'planning.md'),
      '# Planning notes\n\nA partially observable Markov decision process (POMDP) keeps a belief over states.\n',
    );
    await ingest();
    expect(await ids('Concept')).not.toContain('Concept:northwind freight');
    expect(await graph.getEntities({ workspaceId, ids: ['Concept:northwind freight'] })).toEqual([]);
    await expectNoStaleFacts();

    // The textbook page is deleted: its algorithm can no longer be found or reached.
    await unlink(path.join(root, 'beliefs.md'));
    await ingest(true);
    expect(await graph.getEntities({ workspaceId, ids: ['Algorithm:19.2', 'Formula:19.5'] })).toEqual([]);
    const fromPomdp = await graph.neighbourhood({ workspaceId, seeds: ['Acronym:POMDP'], hops: 3 });
    expect(fromPomdp.entities.map((entity) => entity.id)).not.toContain('Algorithm:19.2');
    expect(
      (await graph.mentions({ workspaceId, entityIds: ['Acronym:POMDP'] })).map(
        (mention) => mention.sourcePath,
      ),
    ).toEqual([`${path.basename(root)}/planning.md`]);
    await expectNoStaleFacts();

    // Everything deleted: an empty graph.
    await store.deleteDocuments(
      workspaceId,
      (await store.listDocuments(workspaceId)).map((document) => document.sourcePath),
    );
    expect(await graph.stats({ workspaceId })).toEqual({
      entities: 0,
      relations: 0,
      mentions: 0,
      sources: 0,
    });
  });
});
