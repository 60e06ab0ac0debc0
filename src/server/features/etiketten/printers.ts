import net from 'node:net';
import type { Kysely } from 'kysely';
import {
  type DruckerForm,
  type DruckerZeile,
  type LabelSize,
  PRINT_TIMEOUT_MS,
  etikettenTexts as t,
  validPrinterHost,
} from '../../../contract/etiketten.ts';
import type { PrinterConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import {
  checkedLookup,
  type PrinterRules,
  PrinterTargetBlocked,
  printerTargetProblem,
} from '../../domain/printer-address.ts';
import { recordAudit } from '../../repositories/audit.repository.ts';

type Db = Kysely<Database>;

export interface Printer {
  id: number | null;
  name: string;
  host: string;
  port: number;
  dpi: 203 | 300;
  groesse: '100x50' | '57x32';
  quelle: 'leitstand' | 'umgebung';
}

/** Printers from PRINTERS load 100×50 mm labels (the variable names no size; set one up in the Leitstand for 57×32). */
const ENV_SIZE = '100x50' as const satisfies LabelSize;

/** Every printer: those from PRINTERS first (their names win), then the Leitstand's, by name. */
export async function allPrinters(db: Db, fromEnv: PrinterConfig[]): Promise<Printer[]> {
  const rows = await db
    .selectFrom('printers')
    .select(['id', 'name', 'host', 'port', 'dpi', 'groesse'])
    .orderBy('name')
    .execute();
  const env: Printer[] = fromEnv.map((p) => ({ ...p, id: null, groesse: ENV_SIZE, quelle: 'umgebung' }));
  const taken = new Set(env.map((p) => p.name.toLowerCase()));
  return [
    ...env,
    ...rows
      .filter((r) => !taken.has(r.name.toLowerCase()))
      .map((r) => ({
        id: r.id,
        name: r.name,
        host: r.host,
        port: r.port,
        dpi: r.dpi === 300 ? (300 as const) : (203 as const),
        groesse: r.groesse === '57x32' ? ('57x32' as const) : ('100x50' as const),
        quelle: 'leitstand' as const,
      })),
  ];
}

export async function printerNamed(db: Db, fromEnv: PrinterConfig[], name: string): Promise<Printer> {
  const printer = (await allPrinters(db, fromEnv)).find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!printer) throw notFound(t.printerUnknown(name));
  return printer;
}

export const adminRow = (p: Printer): DruckerZeile => ({
  id: p.id,
  name: p.name,
  host: p.host,
  port: p.port,
  dpi: p.dpi,
  groesse: p.groesse,
  quelle: p.quelle,
});

/**
 * Sends a job to a printer's raw TCP port (9100 on Zebra printers) and resolves once the whole job has left
 * for the printer (the socket's write side finished). A printer that refuses the connection, cannot be
 * reached, or has not taken every byte within `timeoutMs` is a German 409 ('… antwortet nicht'), and the
 * connection is dropped, so a job that did not go out is never reported as printed. Raw port 9100 has no
 * answer of its own: a printer that takes the bytes and then jams is out of the server's sight.
 */
export function sendJob(
  printer: Pick<Printer, 'name' | 'host' | 'port'>,
  job: string,
  rules: PrinterRules,
  timeoutMs: number = PRINT_TIMEOUT_MS,
): Promise<void> {
  // The printer's port and address are checked again for every job (a row from before the rules, a name
  // that resolves elsewhere now): the server connects to nothing else (issue 39).
  if (printerTargetProblem(printer.host, printer.port, rules))
    return Promise.reject(conflict(t.printerBlocked(printer.name)));
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: printer.host, port: printer.port, lookup: checkedLookup(rules) });
    let settled = false;
    const fail = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(
        conflict(
          error instanceof PrinterTargetBlocked
            ? t.printerBlocked(printer.name)
            : t.printerDown(printer.name),
        ),
      );
    };
    const timer = setTimeout(fail, timeoutMs);
    socket.on('error', fail);
    socket.on('connect', () => {
      socket.end(job, 'utf8', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve();
        // The printer may keep its side open; ours is done.
        setTimeout(() => socket.destroy(), 1000).unref();
      });
    });
  });
}

// ── The admin's list (Leitstand) ──────────────────────────────────────────────────────────────────────

function checkForm(form: DruckerForm, rules: PrinterRules): void {
  if (!validPrinterHost(form.host)) throw invalid(t.printerHostInvalid);
  const problem = printerTargetProblem(form.host, form.port, rules);
  if (!problem) return;
  if (problem.problem === 'port') throw invalid(t.printerPortBlocked(form.port, rules.ports));
  if (problem.problem === 'numericHost') throw invalid(t.printerHostNumeric);
  if (problem.problem === 'host') throw invalid(t.printerHostInvalid);
  throw invalid(t.printerAddressBlocked(form.host));
}

/** The server cannot start: PRINTERS and the admin's list name the same printer. */
export class PrinterNameClash extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrinterNameClash';
  }
}

/**
 * At the server's start: a name both PRINTERS and the admin's list have is refused (the environment's
 * printer silently took the place of the admin's, who then printed elsewhere than they set up).
 */
export async function printerNameClash(db: Db, fromEnv: PrinterConfig[]): Promise<string | null> {
  if (fromEnv.length === 0) return null;
  const rows = await db.selectFrom('printers').select(['name', 'host', 'port']).execute();
  for (const p of fromEnv) {
    const row = rows.find((r) => r.name.toLowerCase() === p.name.toLowerCase());
    if (row)
      return `PRINTERS names the printer "${p.name}" (${p.host}:${p.port}), and the Leitstand's printer list has "${row.name}" (${row.host}:${row.port}): rename one of them (PRINTERS, or Leitstand › Etiketten › Drucker) or remove one`;
  }
  return null;
}

async function nameTaken(db: Db, fromEnv: PrinterConfig[], name: string, except: number | null) {
  if (fromEnv.some((p) => p.name.toLowerCase() === name.toLowerCase())) return true;
  const row = await db
    .selectFrom('printers')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .$if(except !== null, (q) => q.where('id', '<>', except as number))
    .executeTakeFirst();
  return row !== undefined;
}

export async function druckerAnlegen(
  db: Db,
  fromEnv: PrinterConfig[],
  rules: PrinterRules,
  form: DruckerForm,
  by: { userId: number; requestKey: string | null },
): Promise<number> {
  checkForm(form, rules);
  if (await nameTaken(db, fromEnv, form.name, null)) throw invalid(t.printerNameTaken(form.name));
  const { id } = await db.insertInto('printers').values(form).returning('id').executeTakeFirstOrThrow();
  await recordAudit(db, {
    userId: by.userId,
    action: 'printer.create',
    subject: form.name,
    detail: { ...form },
    requestKey: by.requestKey,
  });
  return id;
}

export async function druckerAendern(
  db: Db,
  fromEnv: PrinterConfig[],
  rules: PrinterRules,
  id: number,
  form: DruckerForm,
  by: { userId: number; requestKey: string | null },
): Promise<void> {
  const before = await db
    .selectFrom('printers')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound(t.printerNotFound(id));
  checkForm(form, rules);
  if (await nameTaken(db, fromEnv, form.name, id)) throw invalid(t.printerNameTaken(form.name));
  await db
    .updateTable('printers')
    .set({ ...form, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  await recordAudit(db, {
    userId: by.userId,
    action: 'printer.update',
    subject: form.name,
    detail: {
      before: {
        name: before.name,
        host: before.host,
        port: before.port,
        dpi: before.dpi,
        groesse: before.groesse,
      },
      after: { ...form },
    },
    requestKey: by.requestKey,
  });
}

export async function druckerEntfernen(
  db: Db,
  id: number,
  by: { userId: number; requestKey: string | null },
): Promise<string> {
  const row = await db.deleteFrom('printers').where('id', '=', id).returning('name').executeTakeFirst();
  if (!row) throw notFound(t.printerNotFound(id));
  await recordAudit(db, {
    userId: by.userId,
    action: 'printer.remove',
    subject: row.name,
    requestKey: by.requestKey,
  });
  return row.name;
}
