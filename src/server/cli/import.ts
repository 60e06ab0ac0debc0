import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { DataDirInUseError } from '../db/connect.ts';
import { openDatabase } from '../db/open.ts';
import { decodeCsv } from '../import/encoding.ts';
import { isKindName, KINDS } from '../import/kinds/index.ts';
import { stderrProgress } from '../import/progress.ts';
import { formatReport, importCsv } from '../import/run.ts';

/**
 * Imports a CSV export of the ERP, for IT (docs/import/README.md describes the columns of each kind):
 *   npm run import -- <kind> <file.csv> [--skip-bad] [--images <folder>]
 * One transaction per file: any refused row and nothing is written, unless --skip-bad. Same DATABASE_URL /
 * DATA_DIR as the server. With PGlite a running server holds DATA_DIR: then this says to upload the file in
 * the Leitstand instead (/leitstand/import, the same import while the server runs), or to stop the server.
 */
const USAGE = `Usage: npm run import -- <kind> <file.csv> [--skip-bad] [--images <folder>]
  kinds: ${Object.keys(KINDS).join(', ')}
  --skip-bad        write the good rows even when some are refused (they are listed)
  --images <folder> projects only: copy each carton's Bild from this folder
See docs/import/README.md for the columns of each kind.`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const args = process.argv.slice(2);
const positional: string[] = [];
let skipBad = false;
let imagesSource: string | null = null;
for (let i = 0; i < args.length; i++) {
  const arg = args[i] ?? '';
  if (arg === '--skip-bad') skipBad = true;
  else if (arg === '--images') {
    const folder = args[++i];
    if (!folder) fail(USAGE);
    imagesSource = path.resolve(folder);
  } else if (arg === '--help' || arg === '-h') fail(USAGE, 0);
  else if (arg.startsWith('--')) fail(`Unknown option ${arg}.\n${USAGE}`);
  else positional.push(arg);
}
const [kind, file] = positional;
if (!kind || !file || positional.length !== 2) fail(USAGE);
if (!isKindName(kind)) fail(`Unknown kind "${kind}".\n${USAGE}`);
if (imagesSource && kind !== 'projects') fail(`--images is for the projects kind only.\n${USAGE}`);
if (imagesSource && !fs.statSync(imagesSource, { throwIfNoEntry: false })?.isDirectory()) {
  fail(`No such folder: ${imagesSource}`, 1);
}
const target = path.resolve(file);
if (!fs.statSync(target, { throwIfNoEntry: false })?.isFile()) fail(`No such file: ${target}`, 1);

const decoded = decodeCsv(fs.readFileSync(target));
if (!decoded.ok) fail(`${target}: ${decoded.reason}`, 1);
const { text, encoding } = decoded;

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return fail((error as Error).message, 1);
  }
})();
const handle = await openDatabase(config).catch((error: unknown) => {
  if (error instanceof DataDirInUseError)
    fail(
      `${error.message}\n` +
        'While the server runs, import through it instead: log in as an admin and upload the file at ' +
        `/leitstand/import (Leitstand › Import, kind "${kind}") — the same import with the same rules, ` +
        'all or nothing. Or stop the server and run this again.',
      1,
    );
  return fail(String(error instanceof Error ? error.message : error), 1);
});
let exitCode = 0;
try {
  const report = await importCsv(handle.db, kind, text, {
    skipBad,
    imagesSource,
    imagesDir: config.imagesDir,
    progress: stderrProgress(),
  });
  const output = `Read as ${encoding}.\n${formatReport(report, { skipBad })}`;
  if (report.committed) console.log(output);
  else console.error(output);
  exitCode = report.committed ? 0 : 1;
} catch (error) {
  console.error(`Import failed, nothing was written: ${error instanceof Error ? error.message : error}`);
  exitCode = 1;
} finally {
  await handle.close();
}
process.exit(exitCode);
