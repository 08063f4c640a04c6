import { migrateDatabase } from '../db/index.js';
import { cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';

async function main(): Promise<number> {
  const config = cliConfig();
  const result = await migrateDatabase(config, cliLogger(config, 'normal'));
  console.log(
    `migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`,
  );
  for (const name of result.applied) console.log(`  applied ${name}`);
  return EXIT.ok;
}

runCli(main);
