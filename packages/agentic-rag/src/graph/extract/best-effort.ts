import { ErrorCode, isRagError } from '../../errors/index.js';
import { entityExtractionFailures, silentLogger, type Logger } from '../../telemetry/index.js';
import type { DocumentFacts } from '../facts.js';
import type { EntityExtractor, ExtractionInput } from './offline.js';

/**
 * An extractor whose failure must not keep a document out: a model-backed extractor that is
 * down, refuses, or keeps answering malformed JSON. The document is then written with the other
 * extractors' facts, and the failure is logged (`entity-extraction-failed` with its code) and
 * counted (agentic_rag_entity_extraction_failures_total). An abort still throws: the caller
 * asked to stop. Put it outside any cache, so a failure is never remembered as "no entities".
 */
export class BestEffortExtractor implements EntityExtractor {
  readonly name: string;
  readonly isCached?: (input: ExtractionInput) => Promise<boolean>;

  constructor(
    private readonly inner: EntityExtractor,
    private readonly logger: Logger = silentLogger,
  ) {
    this.name = inner.name;
    if (inner.isCached) this.isCached = (input) => inner.isCached!(input);
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<DocumentFacts> {
    try {
      return await this.inner.extract(input, signal);
    } catch (error) {
      const code = isRagError(error) ? error.code : ErrorCode.INTERNAL;
      if (code === ErrorCode.ABORTED || signal?.aborted) throw error;
      entityExtractionFailures.inc({ code });
      this.logger.warn('entity-extraction-failed', {
        event: 'entity-extraction-failed',
        extractor: this.name,
        sourcePath: input.sourcePath,
        code,
        error: (error as Error).message,
      });
      return { entities: [], relations: [] };
    }
  }
}
