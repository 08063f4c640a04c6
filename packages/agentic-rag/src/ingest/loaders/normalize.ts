/** LF line ends, no BOM, no NUL: the text every loader hands on. */
export function normalizeText(raw: string): string {
  return raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** A NUL byte in the first 8 KiB is how git and grep tell binary from text; so do we. */
export function looksBinary(bytes: Uint8Array): boolean {
  const limit = Math.min(bytes.length, 8192);
  for (let index = 0; index < limit; index++) if (bytes[index] === 0) return true;
  return false;
}

export function titleFromPath(sourcePath: string): string {
  const base = sourcePath.split('/').pop() ?? sourcePath;
  return base
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}
