import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { quarantinedUnits } from '../../orchestrator/quarantine/detect.js';
import { loadHtml } from '../loaders/html.js';
import { findSecrets } from './scanner.js';

/**
 * Real manuals are full of things shaped like credentials that are not: `user:password@host`,
 * `password=secret` in a connection string's description, `getpass()` in an example, advice about
 * typing passwords. Stored, a manual must read as written: nothing redacted, nothing quarantined.
 * The manuals come from the Debian archive (.ci/provision-services.sh installs them).
 */
const MANUALS = [
  { name: 'PostgreSQL 15', root: '/usr/share/doc/postgresql-doc-15/html' },
  { name: 'Python 3.11', root: '/usr/share/doc/python3.11/html' },
];

async function pages(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.html')).map((entry) => path.join(root, entry));
}

describe.each(MANUALS)('$name, as ingested, reads as written', ({ root }) => {
  const installed = existsSync(root);
  // CI installs the manuals: there a missing one is a failure, not a skip.
  it.runIf(installed || process.env.CI)(
    'has no secret found and no sentence quarantined on any page',
    async () => {
      expect(installed, `${root} is missing: run .ci/provision-services.sh`).toBe(true);
      const files = await pages(root);
      expect(files.length).toBeGreaterThan(200);
      const secrets: string[] = [];
      const quarantined: string[] = [];
      for (const file of files) {
        const loaded = loadHtml({
          sourcePath: path.relative(root, file),
          text: await readFile(file, 'utf8'),
        });
        for (const document of loaded.documents) {
          for (const finding of await findSecrets(document.text))
            secrets.push(
              `${document.sourcePath} ${finding.rule}: ${document.text.slice(finding.start, finding.end)}`,
            );
          for (const unit of quarantinedUnits(document.text))
            quarantined.push(`${document.sourcePath} (${unit.reason}): ${unit.text.slice(0, 120)}`);
        }
      }
      console.log(
        `[manuals] ${root}: ${files.length} pages, ${secrets.length} secrets found, ${quarantined.length} units quarantined`,
      );
      expect(secrets).toEqual([]);
      expect(quarantined).toEqual([]);
    },
    120_000,
  );
});
