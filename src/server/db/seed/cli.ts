import { loadConfig } from '../../config.ts';
import { openDatabase } from '../open.ts';
import { demo, isEmptyDatabase, resetData, seedDemo } from './demo.ts';

/**
 * `npm run seed` seeds the demo warehouse into an empty database; `npm run seed -- --reset` first deletes
 * ALL data (every booking too) and then seeds it anew. Uses the same DATABASE_URL / DATA_DIR as the server;
 * with PGlite the server must be stopped first (one process per data directory).
 */
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--reset');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}\nUsage: npm run seed [-- --reset]`);
  process.exit(2);
}
const reset = args.includes('--reset');

try {
  const config = loadConfig();
  const handle = await openDatabase(config);
  try {
    if (reset) {
      await resetData(handle.db);
      console.log(`Deleted all data in ${handle.describe}.`);
    } else if (!(await isEmptyDatabase(handle.db))) {
      console.log(
        `${handle.describe} already holds data; nothing seeded. Use --reset to rebuild the demo data.`,
      );
      process.exit(0);
    }
    const result = await seedDemo(handle.db);
    console.log(
      `Seeded the demo warehouse into ${handle.describe}: ${result.articles} articles, ${result.locations} locations. ` +
        `Log in as ${demo.passwordUser.username} / ${demo.passwordUser.password}.`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
