import { useCallback, useEffect, useRef, useState } from 'react';
import { asApiError, graphql } from '../api/graphql.js';
import { INGEST, JOB } from '../api/operations.js';
import type { IngestResult, Job } from '../api/types.js';
import { useSession } from '../session/session.js';
import { readUpload, type PickedFile } from './read-file.js';

export type UploadStatus = 'queued' | 'ingesting' | 'ready' | 'failed';

export interface Upload {
  key: number;
  name: string;
  documentId: string | null;
  status: UploadStatus;
  /** The job's progress (0..1) while a worker ingests it; null in inline mode. */
  progress: number | null;
  error: { code: string; message: string } | null;
}

const POLL_MS = 1000;

/** A finished job's error text as a code and message ("CODE: message" when the worker wrote one). */
function jobError(job: Job): { code: string; message: string } {
  const match = /^([A-Z][A-Z_]+): (.*)$/s.exec(job.error ?? '');
  return match
    ? { code: match[1]!, message: match[2]! }
    : { code: 'JOB_FAILED', message: job.error ?? job.status };
}

/**
 * Uploads files one ingest per file, so each has its own status: inline mode answers when the
 * document is stored; with the queue, the job is polled until it completes or dies.
 */
export function useUploads(onStored: () => void) {
  const { apiKey, workspaceId } = useSession();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const update = useCallback((key: number, change: Partial<Upload>) => {
    if (alive.current)
      setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  }, []);

  const follow = useCallback(
    async (key: number, job: Job) => {
      let current = job;
      while (current.status === 'queued' || current.status === 'active') {
        update(key, {
          status: current.status === 'active' ? 'ingesting' : 'queued',
          progress: current.progress,
        });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (!alive.current) return;
        const { job: next } = await graphql<{ job: Job | null }>(apiKey, JOB, { id: current.id });
        if (!next) throw new Error(`job ${current.id} is gone`);
        current = next;
      }
      if (current.status === 'completed') update(key, { status: 'ready' });
      else update(key, { status: 'failed', error: jobError(current) });
    },
    [apiKey, update],
  );

  const upload = useCallback(
    (files: Iterable<PickedFile>) => {
      for (const picked of files) {
        const key = nextKey.current++;
        setUploads((all) => [
          { key, name: picked.path, documentId: null, status: 'queued', progress: null, error: null },
          ...all,
        ]);
        void (async () => {
          try {
            const document = await readUpload(picked);
            update(key, { documentId: document.id, status: 'ingesting' });
            const { ingestDocuments: result } = await graphql<{ ingestDocuments: IngestResult }>(
              apiKey,
              INGEST,
              {
                input: { workspaceId, documents: [document] },
              },
            );
            const failure = result.summary?.failures[0];
            if (failure) update(key, { status: 'failed', error: failure });
            else if (result.mode === 'inline') update(key, { status: 'ready' });
            else await follow(key, result.jobs[0]!);
            onStored();
          } catch (error) {
            const { code, message } = asApiError(error);
            update(key, { status: 'failed', error: { code, message } });
          }
        })();
      }
    },
    [apiKey, workspaceId, follow, update, onStored],
  );

  return { uploads, upload };
}
