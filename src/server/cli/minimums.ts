import type { LocationCode } from '../../contract/ids.ts';
import { AMOUNT_MAX } from '../../contract/limits.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { articlesByNummer } from '../repositories/article.repository.ts';
import { findLocationByCode } from '../repositories/location.repository.ts';
import { minimumsWithStock, setMinimum } from '../repositories/replenishment.repository.ts';

/**
 * Replenishment minimums, for the shift lead or IT:
 *   npm run minimum -- set <Lagerplatz> <Artikelnummer> <Minimum>
 *   npm run minimum -- remove <Lagerplatz> <Artikelnummer>
 *   npm run minimum -- list
 * Same DATABASE_URL / DATA_DIR as the server (with PGlite, stop the server first). The Leitstand's Nachschub
 * page does the same while the server runs, with the same queries (replenishment.repository.ts).
 */
const USAGE = `Usage:
  npm run minimum -- set <location code> <article nummer> <minimum>
  npm run minimum -- remove <location code> <article nummer>
  npm run minimum -- list`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (!command || !['set', 'remove', 'list'].includes(command)) fail(USAGE);
if (command === 'set' && rest.length !== 3) fail(USAGE);
if (command === 'remove' && rest.length !== 2) fail(USAGE);
if (command === 'list' && rest.length !== 0) fail(USAGE);
const [code = '', nummer = '', minimumText = ''] = rest;
const minimum = Number(minimumText);
if (command === 'set' && (!/^\d+$/.test(minimumText) || minimum < 1 || minimum > AMOUNT_MAX)) {
  fail(`The minimum must be a whole number from 1 to ${AMOUNT_MAX}, got "${minimumText}".`);
}

let exitCode = 0;
const handle = await openDatabase(loadConfig()).catch((error: unknown) =>
  fail(String(error instanceof Error ? error.message : error)),
);
try {
  const db = handle.db;
  if (command === 'list') {
    const rows = await minimumsWithStock(db);
    for (const r of rows)
      console.log(
        `${r.location}\t${r.nummer}\tminimum ${r.minimum}\tstock ${r.amount}${r.amount < r.minimum ? '\tBELOW' : ''}`,
      );
    console.log(`${rows.length} minimums.`);
  } else {
    const location = await findLocationByCode(db, code as LocationCode);
    const article = (await articlesByNummer(db, [nummer])).get(nummer);
    if (!location) {
      console.error(`No location with the code "${code}".`);
      exitCode = 1;
    } else if (!article) {
      console.error(`No article with the nummer "${nummer}".`);
      exitCode = 1;
    } else if (command === 'set') {
      await setMinimum(db, { locationId: location.id, articleId: article.id, minimum });
      console.log(`Minimum of ${nummer} on ${code} is now ${minimum}.`);
    } else {
      const before = await setMinimum(db, { locationId: location.id, articleId: article.id, minimum: 0 });
      console.log(
        before > 0 ? `Minimum of ${nummer} on ${code} removed.` : `${nummer} on ${code} had no minimum.`,
      );
    }
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
