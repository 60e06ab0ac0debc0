import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { exportColumns, FEEDS, isoTime, MAX_LIMIT } from '../../contract/export.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { decodeCursor, exportPage, isFeed, type Position } from '../features/export/feeds.ts';
import { directSteps } from '../http/back-office.ts';
import { csvHeader, csvRows } from '../http/csv.ts';

/**
 * A whole export feed into one file, for IT (the same rows as GET /api/export/{feed}):
 *   npm run export -- <feed> --since <time> [--format csv|json] [--sep ';'] [--out file]
 *   npm run export -- <feed> --cursor <cursor from an earlier run> …
 * Reads the database directly — same DATABASE_URL / DATA_DIR as the server (with PGlite, stop the server
 * first) — so it needs no token and no running server. Pages of 10,000 rows are written as they come.
 */
const USAGE = `Usage:
  npm run export -- <feed> --since <ISO time> [--format csv|json] [--sep ,|;] [--out <file>]
  npm run export -- <feed> --cursor <cursor printed by an earlier run> [...]
  --page <n>: rows per database read, 1 to ${MAX_LIMIT} (default ${MAX_LIMIT})
Feeds: ${FEEDS.join(', ')}. Without --out the rows go to standard output.
CSV: RFC 4180 with "," (default); --sep ";" for German Excel (with a UTF-8 byte order mark).
JSON: one array of rows.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      since: { type: 'string' },
      cursor: { type: 'string' },
      format: { type: 'string', default: 'csv' },
      sep: { type: 'string', default: ',' },
      out: { type: 'string' },
      page: { type: 'string', default: String(MAX_LIMIT) },
    },
  });
}
try {
  args = parse();
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
const { positionals, values } = args;
const feed = positionals[0] ?? '';
if (positionals.length !== 1 || !isFeed(feed)) fail(USAGE);
const format = values.format;
if (format !== 'csv' && format !== 'json') fail(`--format must be csv or json, got "${format}".`);
const sep = values.sep;
if (sep !== ',' && sep !== ';') fail(`--sep must be , or ;, got "${sep}".`);
const since = values.since ?? null;
if (since !== null && !isoTime().safeParse(since).success)
  fail(`--since must be an ISO 8601 time with a time zone, e.g. 2026-11-23T00:00:00Z, got "${since}".`);
let cursor: Position | null = null;
if (values.cursor !== undefined) {
  cursor = decodeCursor(feed, values.cursor);
  if (!cursor) fail(`--cursor is not a cursor of the ${feed} feed.`);
}
const pageSize = Number(values.page);
if (!/^[1-9][0-9]*$/.test(values.page) || pageSize > MAX_LIMIT)
  fail(`--page must be a whole number from 1 to ${MAX_LIMIT}, got "${values.page}".`);
if (since === null && cursor === null) fail(`Give --since or --cursor.\n${USAGE}`);

const handle = await openDatabase(loadConfig()).catch((error: unknown) =>
  fail(String(error instanceof Error ? error.message : error)),
);
const out = values.out ? fs.createWriteStream(values.out) : process.stdout;
const write = (text: string) =>
  new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
let rows = 0;
let exitCode = 0;
try {
  const columns = exportColumns[feed];
  await write(format === 'csv' ? csvHeader(columns, sep) : '[');
  let page = await exportPage(directSteps, handle.db, feed, { since, cursor, limit: pageSize });
  for (;;) {
    if (format === 'csv') await write(csvRows(page.items, columns, sep));
    else for (const item of page.items) await write(`${rows++ === 0 ? '\n' : ',\n'}${JSON.stringify(item)}`);
    if (format === 'csv') rows += page.items.length;
    if (!page.hasMore) break;
    const next = decodeCursor(feed, page.nextCursor);
    page = await exportPage(directSteps, handle.db, feed, { since, cursor: next, limit: pageSize });
  }
  if (format === 'json') await write(rows === 0 ? ']\n' : '\n]\n');
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  console.error(`Wrote ${rows} ${feed} rows${values.out ? ` to ${values.out}` : ''}.`);
  console.error(`Continue later with: npm run export -- ${feed} --cursor ${page.nextCursor}`);
} catch (error) {
  console.error(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await handle.close();
}
process.exit(exitCode);
