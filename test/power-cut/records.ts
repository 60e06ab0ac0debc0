/** The file journal's record types (journal-preload.ts writes them, model.ts reads them): each record's first byte. */
export const RECORD = {
  write: 1,
  truncate: 2,
  create: 3,
  rename: 4,
  remove: 5,
  syncBegin: 6,
  syncEnd: 7,
  answer: 8,
} as const;
