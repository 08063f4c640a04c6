import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalReportFixtures } from './report-fixtures.js';

/**
 * The API's evalRuns tests read golden reports checked in beside them, so the API does not depend
 * on this package; this keeps those files exactly what `rag:eval`'s scoring and writer make today.
 * UPDATE_EVAL_FIXTURES=1 rewrites them after a deliberate change of the report format.
 */
const DIRECTORY = path.resolve(import.meta.dirname, '../../../../apps/api/src/eval-reports');

describe('the eval report fixtures of the API tests', () => {
  const fixtures = evalReportFixtures('__WORKSPACE__');
  it.each(Object.entries(fixtures))('%s is the report rag:eval writes for it', async (_name, report) => {
    const file = path.join(DIRECTORY, `golden-${report.startedAt.replace(/[:.]/g, '-')}.json`);
    const expected = `${JSON.stringify(report, null, 2)}\n`;
    if (process.env.UPDATE_EVAL_FIXTURES === '1') await writeFile(file, expected);
    expect(await readFile(file, 'utf8')).toBe(expected);
  });
});
