import { describe } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { CorpusStore } from '../store/index.js';
import { graphStoreContract } from './conformance.js';
import { PostgresGraphStore } from './postgres.js';

describe('PostgresGraphStore', () => {
  for (const backend of testBackends()) {
    graphStoreContract(backend.name, async () => {
      const sql = await backend.open();
      const workspaceId = uniqueWorkspace('graph');
      const corpus = new CorpusStore(sql);
      return {
        store: new PostgresGraphStore(sql),
        workspaceId,
        async createSource(sourcePath, chunkIds) {
          await corpus.writeDocument({
            workspaceId,
            sourcePath,
            sourceFile: sourcePath,
            sourceRoot: 'graph',
            kind: 'text',
            title: null,
            url: null,
            content: sourcePath,
            contentHash: sourcePath,
            pipelineFingerprint: 'graph',
            tokenCount: 1,
            metadata: {},
            embeddingModel: 'test-model',
            embeddingDimensions: 768,
            chunks: chunkIds.map((chunkId, index) => ({
              chunkId,
              index,
              text: `${sourcePath} part ${index}`,
              tokenCount: 3,
              start: 0,
              end: 1,
              sectionPath: [],
              metadata: {},
              embedding: Array.from({ length: 768 }, (_, axis) => (axis === index ? 1 : 0)),
            })),
          });
        },
        async dispose() {
          await dropWorkspace(sql, workspaceId);
          await dropWorkspace(sql, `${workspaceId}-other`);
          await sql.close();
        },
      };
    });
  }
});
