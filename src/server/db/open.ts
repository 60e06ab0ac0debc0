import type { Config } from '../config.ts';
import { type DatabaseHandle, openPglite, openPostgres } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  const handle = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.databasePoolSize)
    : await openPglite({ dataDir: config.dataDir, durability: config.durability });
  try {
    await migrateToLatest(handle.db);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
