import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { DataDirInUseError } from '../db/connect.ts';
import { openDatabase } from '../db/open.ts';
import { directSteps } from '../http/back-office.ts';
import { isKindName, KINDS } from '../import/kinds/index.ts';
import { stderrProgress } from '../import/progress.ts';
import { formatReport, importSource } from '../import/run.ts';
import { workerSource } from '../import/source.ts';
import { applyRun, pendingRuns } from '../import/staged.ts';

/**
 * Imports a CSV export of the ERP, for IT (docs/import/README.md describes the columns of each kind):
 *   npm run import -- <kind> <file.csv> [--skip-bad] [--images <folder>]
 * All or nothing per file: any refused row and nothing is written, unless --skip-bad; written in steps
 * (decision 30), and completed by the next start (of this or the server) if a crash stops it. Same DATABASE_URL /
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
const engine = { db: handle.db, steps: directSteps, imagesDir: config.imagesDir };
try {
  // An import a crash stopped half-way (this command's or the server's) is completed first (decision 30).
  const left = (await pendingRuns(handle.db, 0)).filter((run) => run.state === 'applying');
  for (const run of left) {
    await applyRun(engine, run.id);
    console.error(`Completed import run ${run.id}, which a crash had stopped while writing.`);
  }
  // The file is read in a worker thread, as the server reads an upload (the same code, either way).
  const reading = stderrProgress();
  reading.start('reading', 100, false);
  const source = workerSource(
    { kind, form: 'file', bytes: fs.readFileSync(target) },
    { onProgress: (share) => reading.update(Math.floor(share * 100)) },
  );
  const opened = await source.opened;
  reading.done();
  if (!opened.ok) {
    await source.close();
    console.error(`${target}: ${'undecodable' in opened ? opened.undecodable : opened.invalid}`);
    exitCode = 1;
  } else {
    const report = await importSource(handle.db, kind, source, {
      skipBad,
      imagesSource,
      imagesDir: config.imagesDir,
      progress: stderrProgress(),
    });
    const output = `Read as ${opened.encoding}.\n${formatReport(report, { skipBad })}`;
    if (report.committed) console.log(output);
    else console.error(output);
    exitCode = report.committed ? 0 : 1;
  }
} catch (error) {
  // Failed while reading or checking: nothing was written. Failed while writing: the run stays, and the
  // next start of the server or of this command completes it.
  console.error(
    `Import failed: ${error instanceof Error ? error.message : error}\n` +
      'Nothing was written, unless it had begun writing: then the next start of the server (or of this ' +
      'command) completes the import.',
  );
  exitCode = 1;
} finally {
  await handle.close();
}
process.exit(exitCode);
