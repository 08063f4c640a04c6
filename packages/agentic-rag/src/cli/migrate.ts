import { migrate, openSql } from '../db/index.js';
import { cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';

async function main(): Promise<number> {
  const config = cliConfig();
  const sql = await openSql(config);
  try {
    const result = await migrate(sql, { logger: cliLogger(config, 'normal') });
    console.log(
      `migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`,
    );
    for (const name of result.applied) console.log(`  applied ${name}`);
    return EXIT.ok;
  } finally {
    await sql.close();
  }
}

runCli(main);
