import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { lastBackupRow } from '../contract/leitstand/datensicherung.ts';
import { BackupAlreadyRunning, type BackupNote, writePgliteBackup } from './db/pglite-backup.ts';
import type { Database } from './db/schema.ts';
import { HeavyBusy, type HeavyOperations } from './http/back-office.ts';
import type { RunUnit } from './http/background-step.ts';
import { recordBackup } from './repositories/backup.repository.ts';

/**
 * How `npm run backup` reaches the server that holds the embedded database (one process per data folder):
 * a Unix socket in DATA_DIR, readable and writable by the service's own user only (mode 0600, in a folder
 * that is the service's) — no network, no password: who may open the socket may read the data folder anyway.
 *
 *   POST /backup           the backup as a gzip'd tar stream; its note in the trailer `x-backup-note` once
 *                          complete (no trailer: it broke off, the file is incomplete)
 *   POST /backup/recorded  body: the BackupRecord, once the command has its file safely on disk
 */
export const BACKUP_SOCKET = 'backup.sock';
/** A Unix socket's path must fit in sockaddr_un (108 bytes with its terminating zero). */
const MAX_SOCKET_PATH = 107;

export interface BackupSocket {
  path: string;
  close(): Promise<void>;
}

export interface BackupSocketOptions {
  dataDir: string;
  db: Kysely<Database>;
  runUnit: RunUnit;
  /** Awaited before each part of the copy (the floor goes first: `giveWayToCalls`). */
  giveWay?: (bytes: number) => Promise<void>;
  /** The server's heavy operations (HEAVY_OPERATIONS_MAX, decision 31): a backup is one. */
  heavy?: HeavyOperations;
  log: {
    info: (fields: Record<string, unknown>, message: string) => void;
    warn: (fields: Record<string, unknown>, message: string) => void;
  };
}

/** Opens the backup socket (a stale one of a server that died is replaced: the data folder's lock is ours). */
export async function serveBackups(options: BackupSocketOptions): Promise<BackupSocket | null> {
  const { dataDir, db, runUnit, giveWay, heavy, log } = options;
  const socketPath = path.resolve(dataDir, BACKUP_SOCKET);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    log.warn(
      { socketPath },
      `backup socket not opened: its path is longer than ${MAX_SOCKET_PATH} bytes (choose a shorter DATA_DIR); npm run backup cannot reach this server`,
    );
    return null;
  }
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((request, response) => {
    void answer(request, response).catch((error: Error) => {
      log.warn({ err: error }, 'backup failed');
      if (!response.headersSent) {
        response.writeHead(error instanceof BackupAlreadyRunning ? 409 : 500, {
          'content-type': 'text/plain',
        });
        response.end(error.message);
      } else response.destroy(error);
    });
  });

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (request.method === 'POST' && request.url === '/backup') {
      request.resume();
      let release = () => {};
      try {
        release = heavy?.enter() ?? release;
      } catch (error) {
        if (!(error instanceof HeavyBusy)) throw error;
        response
          .writeHead(503, { 'content-type': 'text/plain', 'retry-after': String(error.retryAfterSeconds) })
          .end(
            `the server runs as many heavy operations (exports, imports, label runs, backups) as HEAVY_OPERATIONS_MAX allows; try again in ${error.retryAfterSeconds} s`,
          );
        return;
      }
      response.once('close', release);
      log.info({}, 'backup: started (npm run backup)');
      response.writeHead(200, { 'content-type': 'application/gzip', trailer: 'x-backup-note' });
      // The response is ended here once the trailer is set, not by the backup's pipeline.
      const body = new PassOn(response);
      const note: BackupNote = await writePgliteBackup({
        db,
        pgdata: path.join(dataDir, 'pgdata'),
        runUnit,
        output: body,
        ...(giveWay ? { giveWay } : {}),
      });
      response.addTrailers({ 'x-backup-note': JSON.stringify(note) });
      response.end();
      log.info({ ...note }, 'backup: written');
      return;
    }
    if (request.method === 'POST' && request.url === '/backup/recorded') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const record = lastBackupRow.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
      if (!record.success) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('not a backup record');
        return;
      }
      await runUnit(() => recordBackup(db, record.data));
      response.writeHead(204).end();
      return;
    }
    request.resume();
    response.writeHead(404, { 'content-type': 'text/plain' }).end('unknown request');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The HTTP answer as the backup's output: its pipeline ends this stream, which must not end the answer — the
 * trailer with the note goes after the last byte.
 */
class PassOn extends Writable {
  constructor(private readonly response: http.ServerResponse) {
    super();
    response.on('close', () => {
      if (!response.writableFinished) this.destroy(new Error('the backup command went away'));
    });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.response.write(chunk)) callback();
    else this.response.once('drain', () => callback());
  }
}
