import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { demo, isEmptyDatabase, resetData, seedDemo } from '../seed/demo.ts';
import { seedLarge } from '../seed/large.ts';

/**
 * `npm run seed` seeds the demo warehouse into an empty database; `npm run seed -- --reset` first deletes
 * ALL data (every booking too) and then seeds it anew. `--large` (`npm run seed:large`) adds the large
 * benchmark warehouse to the demo one and prints how long each part took. Uses the same DATABASE_URL /
 * DATA_DIR as the server; with PGlite the server must be stopped first (one process per data directory).
 */
const usage = 'Usage: npm run seed [-- --reset] [--large]   (npm run seed:large [-- --reset])';
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--reset' && a !== '--large');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}\n${usage}`);
  process.exit(2);
}
const reset = args.includes('--reset');
const large = args.includes('--large');
const thousands = (n: number) => n.toLocaleString('en');

try {
  const config = loadConfig();
  const started = performance.now();
  const handle = await openDatabase(config);
  try {
    if (reset) {
      await resetData(handle.db);
      console.log(`Deleted all data in ${handle.describe}.`);
    } else if (!(await isEmptyDatabase(handle.db))) {
      console.log(`${handle.describe} already holds data; nothing seeded. Use --reset to rebuild it.`);
      process.exit(0);
    }
    const result = await seedDemo(handle.db);
    console.log(
      `Seeded the demo warehouse into ${handle.describe}: ${result.articles} articles, ${result.locations} locations. ` +
        `Log in as ${demo.passwordUser.username} / ${demo.passwordUser.password}.`,
    );
    if (large) {
      console.log('Seeding the large warehouse …');
      const sizes = await seedLarge(handle.db, {
        progress: (step, rows, ms) =>
          console.log(
            `  ${step.padEnd(20)} ${(rows > 0 ? thousands(rows) : '').padStart(10)} rows  ${(ms / 1000).toFixed(1).padStart(6)} s`,
          ),
      });
      console.log(
        `Done in ${((performance.now() - started) / 1000).toFixed(0)} s: ${thousands(sizes.articles)} articles, ` +
          `${thousands(sizes.locations)} locations, ${thousands(sizes.stockRows)} stock rows, ` +
          `${thousands(sizes.journalRows)} journal rows more.`,
      );
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
