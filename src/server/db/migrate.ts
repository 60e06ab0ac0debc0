import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as initialSchema from './migrations/2026-11-23-01-initial-schema.ts';
import * as replenishmentMinimums from './migrations/2026-11-23-02-replenishment-minimums.ts';
import * as packingEvents from './migrations/2026-11-23-03-packing-events.ts';
import * as integrationTokens from './migrations/2026-11-23-05-integration-tokens.ts';
import * as attemptCounters from './migrations/2026-11-24-01-attempt-counters.ts';
import * as rolesAndAudit from './migrations/2026-11-24-02-roles-and-audit.ts';
import * as liveOverview from './migrations/2026-11-24-03-live-overview.ts';
import * as klaerfaelle from './migrations/2026-11-25-01-klaerfaelle.ts';
import * as journalIndexes from './migrations/2026-11-25-02-journal-indexes.ts';
import * as printers from './migrations/2026-11-26-01-printers.ts';
import * as receipts from './migrations/2026-11-26-02-receipts.ts';
import * as picking from './migrations/2026-11-26-03-picking.ts';
import * as articleNameTrgm from './migrations/2026-11-26-04-article-name-trgm.ts';
import * as backOfficeIndexes from './migrations/2026-11-27-01-back-office-indexes.ts';
import * as importRuns from './migrations/2026-11-27-02-import-runs.ts';
import * as articleNamesPendingList from './migrations/2026-11-27-03-article-names-pending-list.ts';
import * as journalDocuments from './migrations/2026-11-28-01-journal-documents.ts';
import * as countMarks from './migrations/2026-11-28-02-count-marks.ts';
import * as glossaryNames from './migrations/2026-11-28-03-glossary-names.ts';
import * as cartPicking from './migrations/2026-11-28-04-cart-picking.ts';
import * as cartTrips from './migrations/2026-11-28-05-cart-trips.ts';
import * as cartUndoAndWaveOrder from './migrations/2026-11-28-06-cart-undo-and-wave-order.ts';
import * as compartmentFreeing from './migrations/2026-11-28-07-compartment-freeing.ts';
import * as permanentInventory from './migrations/2026-11-28-08-permanent-inventory.ts';
import * as inventoryList from './migrations/2026-11-28-09-inventory-list.ts';
import * as userLanguage from './migrations/2026-12-07-01-user-language.ts';
import type { Database } from './schema.ts';

/** Migrations in order. Add new ones at the end with a dated name; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '2026-11-23-01-initial-schema': initialSchema,
  '2026-11-23-02-replenishment-minimums': replenishmentMinimums,
  '2026-11-23-03-packing-events': packingEvents,
  '2026-11-23-05-integration-tokens': integrationTokens,
  '2026-11-24-01-attempt-counters': attemptCounters,
  '2026-11-24-02-roles-and-audit': rolesAndAudit,
  '2026-11-24-03-live-overview': liveOverview,
  '2026-11-25-01-klaerfaelle': klaerfaelle,
  '2026-11-25-02-journal-indexes': journalIndexes,
  '2026-11-26-01-printers': printers,
  '2026-11-26-02-receipts': receipts,
  '2026-11-26-03-picking': picking,
  '2026-11-26-04-article-name-trgm': articleNameTrgm,
  '2026-11-27-01-back-office-indexes': backOfficeIndexes,
  '2026-11-27-02-import-runs': importRuns,
  '2026-11-27-03-article-names-pending-list': articleNamesPendingList,
  '2026-11-28-01-journal-documents': journalDocuments,
  '2026-11-28-02-count-marks': countMarks,
  '2026-11-28-03-glossary-names': glossaryNames,
  '2026-11-28-04-cart-picking': cartPicking,
  '2026-11-28-05-cart-trips': cartTrips,
  '2026-11-28-06-cart-undo-and-wave-order': cartUndoAndWaveOrder,
  '2026-11-28-07-compartment-freeing': compartmentFreeing,
  '2026-11-28-08-permanent-inventory': permanentInventory,
  '2026-11-28-09-inventory-list': inventoryList,
  '2026-12-07-01-user-language': userLanguage,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date. Safe with several server instances starting at once (migration lock). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
