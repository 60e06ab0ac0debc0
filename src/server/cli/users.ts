import readline from 'node:readline';
import { isRole, ROLES } from '../../contract/roles.ts';
import {
  AdminError,
  activateUser,
  assignCard,
  createUser,
  deactivateUser,
  listUsers,
  newCardText,
  setPassword,
  setRole,
} from '../auth/users.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open.ts';

/**
 * Users, for IT (same DATABASE_URL / DATA_DIR as the server; with the embedded database stop the server
 * first). Passwords are asked for without echo, or read from the first line of stdin when it is not a
 * terminal (scripts); an existing badge's text can be scanned into the terminal (`--card-stdin`, `--stdin`).
 */
const USAGE = `Usage:
  npm run user -- create <username> "<name>" [--role <role>] [--no-password] [--card | --card-stdin]
  npm run user -- role <user> <role>
  npm run user -- password <user>
  npm run user -- card <user> [--stdin]
  npm run user -- deactivate <user>
  npm run user -- activate <user>
  npm run user -- list
<user> is a username or #id. --card makes a new card text and prints it once; --card-stdin / --stdin
take the text of an existing badge (scan it into the terminal).
<role> is ${ROLES.join(', ')} (each includes the ones before; a new user is ${ROLES[0]}).`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const [command = '', ...rawArgs] = process.argv.slice(2);
/** `--role <role>` or `--role=<role>` (create): taken out first, as its value is no positional argument. */
let roleFlag: string | undefined;
const args: string[] = [];
for (let i = 0; i < rawArgs.length; i++) {
  const arg = rawArgs[i] ?? '';
  if (arg === '--role') {
    roleFlag = rawArgs[++i] ?? '';
  } else if (arg.startsWith('--role=')) {
    roleFlag = arg.slice('--role='.length);
  } else args.push(arg);
}
const flags = new Set(args.filter((a) => a.startsWith('--')));
const positional = args.filter((a) => !a.startsWith('--'));
const allowed: Record<string, { args: number; flags: string[] }> = {
  create: { args: 2, flags: ['--no-password', '--card', '--card-stdin'] },
  role: { args: 2, flags: [] },
  password: { args: 1, flags: [] },
  card: { args: 1, flags: ['--stdin'] },
  deactivate: { args: 1, flags: [] },
  activate: { args: 1, flags: [] },
  list: { args: 0, flags: [] },
};
const shape = allowed[command];
if (!shape || positional.length !== shape.args || [...flags].some((f) => !shape.flags.includes(f)))
  fail(USAGE);
if (roleFlag !== undefined && command !== 'create') fail(USAGE);
if (roleFlag !== undefined && !isRole(roleFlag)) fail(`Unknown role "${roleFlag}": use ${ROLES.join(', ')}.`);
if (command === 'role' && !isRole(positional[1]))
  fail(`Unknown role "${positional[1]}": use ${ROLES.join(', ')}.`);
if (flags.has('--card') && flags.has('--card-stdin')) fail('Use --card or --card-stdin, not both.');
if (command === 'create' && flags.has('--no-password') && !flags.has('--card') && !flags.has('--card-stdin'))
  fail('A user with --no-password needs --card or --card-stdin, or they cannot log in.');

/** Lines of stdin when it is a pipe; prompts on the terminal when it is one (a password without echo). */
const pipedLines: AsyncIterator<string> | null = process.stdin.isTTY
  ? null
  : readline.createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();

async function ask(prompt: string, secret: boolean): Promise<string> {
  if (pipedLines) {
    const next = await pipedLines.next();
    if (next.done) fail(`Expected a line on stdin for: ${prompt.trim()}`);
    return next.value;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (secret) {
    // Echo nothing of what is typed (the prompt itself is written before muting).
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    const write = output._writeToOutput.bind(rl);
    output._writeToOutput = (s: string) => {
      if (s.startsWith(prompt)) write(prompt);
    };
  }
  const answer = await new Promise<string>((resolve) => rl.question(prompt, resolve));
  rl.close();
  if (secret) process.stdout.write('\n');
  return answer;
}

async function askPassword(): Promise<string> {
  const password = await ask('New password: ', true);
  if (!pipedLines && (await ask('Once more: ', true)) !== password) fail('The two passwords differ.', 1);
  return password;
}

function printNewCard(card: string): void {
  console.log('Card text — print it on the badge as a Code 128 or QR code; it is not shown again:');
  console.log(card);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
})();
const handle = await openDatabase(config).catch((error: unknown) =>
  fail(String(error instanceof Error ? error.message : error), 1),
);
let exitCode = 0;
try {
  const db = handle.db;
  const [first = '', second = ''] = positional;
  if (command === 'list') {
    const users = await listUsers(db, config.sessionIdleMinutes);
    console.log('id\tusername\tname\trole\tactive\tpassword\tcard\tlogins\tlast seen');
    for (const u of users)
      console.log(
        [
          `#${u.id}`,
          u.username ?? '-',
          u.name,
          u.role,
          u.active ? 'yes' : 'NO',
          u.hasPassword ? 'yes' : '-',
          u.hasCard ? 'yes' : '-',
          u.liveSessions,
          u.lastSeenAt ? u.lastSeenAt.toISOString() : '-',
        ].join('\t'),
      );
    console.log(`${users.length} users.`);
  } else if (command === 'create') {
    const password = flags.has('--no-password') ? undefined : await askPassword();
    const cardText = flags.has('--card')
      ? newCardText()
      : flags.has('--card-stdin')
        ? await ask('Scan the card: ', false)
        : undefined;
    const role = isRole(roleFlag) ? roleFlag : undefined;
    const { message } = await createUser(db, { username: first, name: second, password, cardText, role });
    console.log(message);
    if (flags.has('--card') && cardText) printNewCard(cardText);
  } else if (command === 'role' && isRole(second)) {
    console.log(await setRole(db, first, second));
  } else if (command === 'password') {
    console.log(await setPassword(db, first, await askPassword()));
  } else if (command === 'card') {
    const cardText = flags.has('--stdin') ? await ask('Scan the card: ', false) : newCardText();
    console.log(await assignCard(db, first, cardText));
    if (!flags.has('--stdin')) printNewCard(cardText);
  } else if (command === 'deactivate') {
    console.log(await deactivateUser(db, first));
  } else if (command === 'activate') {
    console.log(await activateUser(db, first));
  }
} catch (error) {
  if (!(error instanceof AdminError)) throw error;
  console.error(error.message);
  exitCode = 1;
} finally {
  await handle.close();
}
process.exit(exitCode);
