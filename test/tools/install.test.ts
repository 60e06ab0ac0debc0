import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('npm install', () => {
  it('opts out of the install-time telemetry swagger-ui-dist brings along (@scarf/scarf)', () => {
    // Scarf's install script reads the project's package.json: `enabled: false` sends nothing,
    // `skipTraversal` spares it the `npm ls` it would otherwise run to find out who depends on it.
    expect(read('package.json').scarfSettings).toEqual({ enabled: false, skipTraversal: true });
  });
});
