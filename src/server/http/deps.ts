import type { Kysely } from 'kysely';
import type { SessionCache } from '../auth/session-cache.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { ChangeFeed } from '../live/changes.ts';
import type { AdmissionGate } from './admission.ts';
import type { HeavyOperations } from './back-office.ts';

/** What every route is registered with: `buildApp` makes one and hands it to each feature's routes. */
export interface Deps {
  db: Kysely<Database>;
  config: Config;
  /** Logins this instance checked moments ago. */
  sessions: SessionCache;
  /** Where every successful write is announced, for the Leitstand's live views. */
  changes: ChangeFeed;
  /** Milliseconds since the epoch: the time rules that run out (a picking claim) read it; tests move it. */
  clock: () => number;
  /** Where every contract call waits for its place, or is answered 503 when the line is too long (decision 26). */
  admission: AdmissionGate;
  /** The heavy back-office operations running now, at most HEAVY_OPERATIONS_MAX (DESIGN §10). */
  heavy: HeavyOperations;
  /**
   * No other process uses this database (the embedded one holds its data folder alone): work this server
   * does not know of — an import run left at work — is a dead one, completed or dropped at once.
   */
  exclusiveDatabase: boolean;
}
