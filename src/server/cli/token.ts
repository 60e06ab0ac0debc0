import {
  createIntegrationToken,
  listIntegrationTokens,
  revokeIntegrationToken,
  TOKEN_NAME,
  TokenNameTaken,
} from '../auth/integration-tokens.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';

/**
 * Integration tokens for the export API, for IT:
 *   npm run token -- create <name>    prints the new token once (only its hash is stored)
 *   npm run token -- list
 *   npm run token -- revoke <name>
 * Same DATABASE_URL / DATA_DIR as the server (with PGlite, stop the server first).
 */
const USAGE = `Usage:
  npm run token -- create <name>    new integration token for the export API, printed once
  npm run token -- list             all tokens: name, created, last used, revoked
  npm run token -- revoke <name>    the token stops working at once`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (
  command === 'list' ? rest.length !== 0 : !['create', 'revoke'].includes(command ?? '') || rest.length !== 1
)
  fail(USAGE);
const name = rest[0] ?? '';
if (command === 'create' && !TOKEN_NAME.test(name))
  fail(
    `The name must be 1 to 100 letters, digits, ".", "_" or "-" (starting with a letter or digit), got "${name}".`,
  );

let exitCode = 0;
const handle = await openDatabase(loadConfig()).catch((error: unknown) =>
  fail(String(error instanceof Error ? error.message : error)),
);
const when = (date: Date | null) => (date ? date.toISOString() : '-');
try {
  if (command === 'create') {
    try {
      const token = await createIntegrationToken(handle.db, name);
      console.log(
        `Integration token "${name}" (shown only now; send it as "Authorization: Bearer <token>"):`,
      );
      console.log(token);
    } catch (error) {
      if (!(error instanceof TokenNameTaken)) throw error;
      console.error(`A live token named "${name}" exists already: revoke it first or choose another name.`);
      exitCode = 1;
    }
  } else if (command === 'revoke') {
    if (await revokeIntegrationToken(handle.db, name)) console.log(`Token "${name}" revoked.`);
    else {
      console.error(`No live token named "${name}".`);
      exitCode = 1;
    }
  } else {
    const tokens = await listIntegrationTokens(handle.db);
    console.log('name\tcreated\tlast used\trevoked');
    for (const t of tokens)
      console.log(`${t.name}\t${when(t.createdAt)}\t${when(t.lastUsedAt)}\t${when(t.revokedAt)}`);
    console.log(`${tokens.length} tokens.`);
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
