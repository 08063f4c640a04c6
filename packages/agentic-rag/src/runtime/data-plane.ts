import { IngestQueue, startIngestWorker, type IngestWorker } from '../queue/index.js';
import type { RagRuntime } from './create-runtime.js';

/**
 * The data plane of a worker process: BullMQ workers that run the ingest jobs on this runtime's
 * pipeline, and the queue's producer side, through which the worker's reconciler enqueues again
 * what Redis lost. `close` stops taking jobs, lets the running ones finish, and closes both.
 */
export async function startDataPlane(runtime: RagRuntime): Promise<IngestWorker> {
  const queue = new IngestQueue(runtime.config, runtime.jobs);
  const plane = await startIngestWorker({ ...runtime, queue });
  return {
    ...plane,
    close: async () => {
      await plane.close();
      await queue.close();
    },
  };
}
