import { type DBSchema, openDB } from 'idb';
import type { OutboxEntry, OutboxStore } from './outbox.ts';

interface OutboxDb extends DBSchema {
  scans: { key: string; value: OutboxEntry; indexes: { seq: number } };
}

/** The outbox in the browser's IndexedDB: survives a reload, a closed tab and a flat battery. */
export function idbStore(name = 'lagerscanner-outbox'): OutboxStore {
  const db = openDB<OutboxDb>(name, 1, {
    upgrade(database) {
      database.createObjectStore('scans', { keyPath: 'key' }).createIndex('seq', 'seq');
    },
  });
  return {
    all: async () => (await db).getAllFromIndex('scans', 'seq'),
    put: async (entry) => {
      await (await db).put('scans', entry);
    },
    delete: async (key) => {
      await (await db).delete('scans', key);
    },
  };
}
