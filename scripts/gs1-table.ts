import fs from 'node:fs';
import path from 'node:path';
import { generateAiTable } from '../src/contract/gs1/dictionary.ts';

/**
 * `npm run gs1-table`: writes src/contract/gs1/ai-table.ts from the project's copy of GS1's Barcode Syntax
 * Dictionary (src/contract/gs1/gs1-syntax-dictionary.txt). For a new release: replace the copy (keep its
 * licence header), run this, read the diff of ai-table.ts, run the GS1 tests. `--check` only says whether the
 * table is up to date (exit 1 if not).
 */
const folder = path.resolve(import.meta.dirname, '../src/contract/gs1');
const dictionary = fs.readFileSync(path.join(folder, 'gs1-syntax-dictionary.txt'), 'utf8');
const tablePath = path.join(folder, 'ai-table.ts');
const table = generateAiTable(dictionary);
const current = fs.existsSync(tablePath) ? fs.readFileSync(tablePath, 'utf8') : '';

if (process.argv.includes('--check')) {
  if (current !== table) {
    console.error(`${tablePath} differs from the dictionary: run npm run gs1-table`);
    process.exit(1);
  }
  console.log(`${tablePath} is up to date`);
} else if (current === table) {
  console.log(`${tablePath} is up to date`);
} else {
  fs.writeFileSync(tablePath, table);
  console.log(`wrote ${tablePath} (${table.split('\n').length} lines)`);
}
