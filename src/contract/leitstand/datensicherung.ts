import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

/**
 * Leitstand › Datensicherung (admin, decision 29): when the last backup (`npm run backup -- create`) was
 * completed, and a warning when that is more than a day ago or none was ever noted.
 */

const when = z.iso.datetime({ offset: true });

/** A backup older than this is too old (ms): the nightly timer missed at least one night. */
export const BACKUP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export const lastBackupRow = z.object({
  startedAt: when,
  finishedAt: when,
  /** The backup file's size. */
  bytes: z.number().int().min(0),
  database: z.enum(['pglite', 'postgres']),
  /** Taken while a server served (always with PostgreSQL's pg_dump). */
  online: z.boolean(),
});
export type LastBackupRow = z.infer<typeof lastBackupRow>;

export const datensicherung = endpoint({
  name: 'datensicherung',
  method: 'GET',
  path: '/api/admin/datensicherung',
  role: 'admin',
  response: z.object({
    /** null: no backup noted in this database yet. */
    letzte: lastBackupRow.nullable(),
    /** No backup, or the last one finished more than a day ago. */
    veraltet: z.boolean(),
  }),
});

export const datensicherungTexts = {
  title: 'Datensicherung',
  intro:
    'Gesichert wird auf dem Server mit „npm run backup -- create <Datei>“, im laufenden Betrieb – eingerichtet ist das jede Nacht als systemd-Timer (docs/operating.md, Abschnitt „Operating it“). Zurückgespielt wird mit „npm run backup -- restore <Datei>“.',
  last: 'Letzte Sicherung',
  finishedAt: 'Abgeschlossen',
  startedAt: 'Begonnen',
  size: 'Größe',
  database: 'Datenbank',
  how: 'Art',
  databases: { pglite: 'Eingebettete Datenbank (PGlite)', postgres: 'PostgreSQL' },
  online: 'im laufenden Betrieb',
  offline: 'bei gestopptem Server',
  ok: 'Die letzte Sicherung ist weniger als einen Tag alt.',
  stale: (when: string) =>
    `Die letzte Datensicherung ist älter als einen Tag (${when}). Bitte die nächtliche Sicherung prüfen: systemctl status lagerscanner-backup.timer`,
  never:
    'Es ist noch keine Datensicherung verzeichnet. Bitte die nächtliche Sicherung einrichten (docs/operating.md, Abschnitt „Operating it“).',
  megabytes: (bytes: number) =>
    `${(bytes / 1024 / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} MB`,
} as const;
