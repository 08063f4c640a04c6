import { ErrorCode } from '../../errors/index.js';
import type { DocumentLimits } from './limits.js';

/** Why an archive was refused before anything unpacked it into memory. */
export interface ArchiveRefusal {
  code: typeof ErrorCode.FILE_TOO_LARGE | typeof ErrorCode.PARSE_FAILED;
  message: string;
}

/**
 * Checks a zip container (a .docx) against the limits before a parser inflates it: how many
 * entries it has and how many bytes its XML parts unpack to, read from the central directory and
 * then confirmed by streaming each part through yauzl with its sizes validated, so an archive that
 * lies about its sizes is stopped at the first byte past what it declared. A zip bomb — a few
 * hundred kilobytes that inflate to gigabytes of XML — is refused in the time it takes to read
 * the directory, holding no more than one compressed chunk at a time. Null when it is within them.
 *
 * Only the XML parts (and their .rels) count: they are what a parser builds a tree of. Media are
 * never read (the DOCX loader does not convert images).
 */
export async function checkZipArchive(bytes: Buffer, limits: DocumentLimits): Promise<ArchiveRefusal | null> {
  const { fromBufferPromise } = await import('yauzl');
  let zip;
  try {
    zip = await fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  } catch (error) {
    return { code: ErrorCode.PARSE_FAILED, message: `not a readable zip archive (${brief(error)})` };
  }
  try {
    if (zip.entryCount > limits.maxArchiveEntries) {
      return tooLarge(`${zip.entryCount} entries; the limit is ${limits.maxArchiveEntries}`);
    }
    const parts = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      if (!/\.(xml|rels)$/i.test(entry.fileName)) continue;
      declared += entry.uncompressedSize;
      if (declared > limits.maxUnpackedBytes) {
        return tooLarge(`its XML unpacks to more than ${limits.maxUnpackedBytes} bytes (the limit)`);
      }
      parts.push(entry);
    }
    // The directory can lie: each part is inflated (and thrown away) with its size validated.
    for (const entry of parts) {
      const stream = await zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream) void chunk;
      } catch (error) {
        stream.destroy();
        return /too many bytes/i.test(brief(error))
          ? tooLarge(`${entry.fileName} unpacks to more than its archive declares`)
          : {
              code: ErrorCode.PARSE_FAILED,
              message: `${entry.fileName} cannot be unpacked (${brief(error)})`,
            };
      }
    }
    return null;
  } catch (error) {
    return { code: ErrorCode.PARSE_FAILED, message: `not a readable zip archive (${brief(error)})` };
  } finally {
    zip.close();
  }
}

function tooLarge(reason: string): ArchiveRefusal {
  return { code: ErrorCode.FILE_TOO_LARGE, message: `archive refused before unpacking: ${reason}` };
}

/** An error's first line, short: a parser's message, never a runtime's internals or a stack. */
export function brief(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 160);
}
