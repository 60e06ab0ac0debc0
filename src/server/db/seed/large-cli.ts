import { loadConfig } from '../../config.ts';
import { openDatabase } from '../open.ts';
import { demo, isEmptyDatabase, resetData, seedDemo } from './demo.ts';
import { seedLarge } from './large.ts';

/**
 * `npm run seed:large [-- --reset]`: the demo warehouse plus a large one for benchmarks (100,000 articles,
 * 20,000 locations, 500,000 stock rows, 2,000,000 journal rows, 50,000 delivery notes with 250,000 lines,
 * 100,000 shipments) into the configured database (DATABASE_URL or DATA_DIR), which must be empty unless
 * --reset (deletes ALL data first). Prints how long each part took.
 */
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--reset');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}\nUsage: npm run seed:large [-- --reset]`);
  process.exit(2);
}

try {
  const config = loadConfig();
  const started = performance.now();
  const handle = await openDatabase(config);
  try {
    if (args.includes('--reset')) {
      await resetData(handle.db);
      console.log(`Deleted all data in ${handle.describe}.`);
    } else if (!(await isEmptyDatabase(handle.db))) {
      console.error(
        `${handle.describe} already holds data. Use --reset to replace it with the large warehouse.`,
      );
      process.exit(1);
    }
    await seedDemo(handle.db);
    console.log(`Seeding the large warehouse into ${handle.describe} …`);
    const count = (rows: number) => (rows > 0 ? rows.toLocaleString('en') : '').padStart(10);
    const sizes = await seedLarge(handle.db, {
      progress: (step, rows, ms) =>
        console.log(`  ${step.padEnd(20)} ${count(rows)} rows  ${(ms / 1000).toFixed(1).padStart(6)} s`),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Done in ${seconds.toFixed(0)} s: ${sizes.articles.toLocaleString('en')} articles, ${sizes.locations.toLocaleString('en')} locations, ` +
        `${sizes.stockRows.toLocaleString('en')} stock rows, ${sizes.journalRows.toLocaleString('en')} journal rows (plus the demo warehouse). ` +
        `Log in as ${demo.passwordUser.username} / ${demo.passwordUser.password}.`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
