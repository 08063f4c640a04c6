import type { PickedFile } from './read-file.js';

// The File and Directory Entries API, as far as a drop uses it (not in TypeScript's DOM types).
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
  file?: (resolve: (file: File) => void, reject: (error: unknown) => void) => void;
  createReader?: () => {
    readEntries: (resolve: (entries: Entry[]) => void, reject: (error: unknown) => void) => void;
  };
}

/** Every file of a drop, folders walked, each with its path inside what was dropped. */
export async function droppedFiles(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries = [...transfer.items]
    .map((item) => (item.webkitGetAsEntry?.() ?? null) as Entry | null)
    .filter((entry): entry is Entry => entry !== null);
  // Without entries (an old browser), the files are what was dropped, folders left out.
  if (entries.length === 0) return [...transfer.files].map((file) => ({ file, path: file.name }));
  const files: PickedFile[] = [];
  for (const entry of entries) await walk(entry, files);
  return files;
}

async function walk(entry: Entry, files: PickedFile[]): Promise<void> {
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((resolve, reject) => entry.file!(resolve, reject));
    files.push({ file, path: entry.fullPath.replace(/^\/+/, '') });
    return;
  }
  if (!entry.isDirectory || !entry.createReader) return;
  const reader = entry.createReader();
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, files);
  }
}
