import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * The export API for other systems (ERP, BI): the journals as pages in booking order, for an integration
 * token (`npm run token -- create <name>`), never for a scanner login. Its messages are English: they are
 * read by the people who build an integration, not by warehouse staff.
 */
export const FEEDS = [
  'movements',
  'inventory',
  'wmsreturns',
  'parcels',
  'customs',
  'receiptdifferences',
  'pickshortages',
] as const;
export type Feed = (typeof FEEDS)[number];

export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;

export const exportMessages = {
  missingToken:
    'An integration token is required: send it as "Authorization: Bearer <token>" (create one with npm run token -- create <name>).',
  unknownToken: 'Unknown or revoked integration token.',
  /** 429: too many unknown tokens from one address (LOGIN_MAX_FAILURES_PER_IP in LOGIN_WINDOW_MINUTES). */
  tooManyTokens:
    'Too many unknown or revoked integration tokens from this address: refused for a while (1 minute at first, longer with each further failure). Check the token.',
  scannerLogin:
    'A scanner login cannot use the integration calls (/api/export/, /api/integration/): send an integration token (npm run token -- create <name>).',
  integrationOnly:
    'An integration token can only use the integration calls (/api/export/, /api/integration/).',
  sinceOrCursor: 'Give since (an ISO 8601 time with time zone, e.g. 2026-11-23T00:00:00Z) or a cursor.',
  since:
    'since must be an ISO 8601 time with a time zone, e.g. 2026-11-23T00:00:00Z or 2026-11-23T06:00:00+01:00.',
  cursor: 'cursor is not one this feed handed out: pass nextCursor from an earlier page unchanged.',
  limit: `limit must be a whole number from 1 to ${MAX_LIMIT}.`,
  format: 'format must be json or csv.',
  sep: 'sep must be , or ; (only with format=csv).',
  unknownParameter: (names: string[]) =>
    `Unknown query parameter ${names.join(', ')}: use since, cursor, limit, format, sep.`,
};

/** ISO 8601 time in UTC with microseconds, as the database keeps it: 2026-11-23T09:15:02.123456Z. */
const time = z.string().describe('Booking time, UTC, microseconds: 2026-11-23T09:15:02.123456Z');
const day = z.string().nullable().describe('Date, YYYY-MM-DD');
const userName = z.string().nullable().describe('Name of the user who booked it');

/** An ISO 8601 time with time zone; not year 0000, which is no year to PostgreSQL (it counts 1 BC, 1 AD). */
export const isoTime = (error?: string) =>
  z.iso.datetime({ offset: true, error }).refine((text) => !text.startsWith('0000'), { error });

export const exportQuery = z.strictObject(
  {
    since: isoTime(exportMessages.since)
      .optional()
      .describe(
        'Rows booked at or after this time (ISO 8601 with time zone). Needed unless cursor is given.',
      ),
    cursor: z
      .string({ error: exportMessages.cursor })
      .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: exportMessages.cursor })
      .optional()
      .describe('nextCursor of an earlier page: continues right after its last row.'),
    limit: z
      .string({ error: exportMessages.limit })
      .regex(/^[1-9][0-9]{0,4}$/, { error: exportMessages.limit })
      .transform(Number)
      .pipe(z.number().int().min(1).max(MAX_LIMIT, { error: exportMessages.limit }))
      .optional()
      .describe(`Rows per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
    format: z
      .enum(['json', 'csv'], { error: exportMessages.format })
      .optional()
      .describe('json (default) or csv (RFC 4180, UTF-8, header row; the cursor in X-Next-Cursor).'),
    sep: z
      .enum([',', ';'], { error: exportMessages.sep })
      .optional()
      .describe('CSV separator: , (default) or ; for German Excel (then with a UTF-8 byte order mark).'),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? exportMessages.unknownParameter(issue.keys) : undefined,
  },
);
export type ExportQuery = z.output<typeof exportQuery>;

export const movementRow = z.object({
  id: z.number().int(),
  time,
  kind: z
    .string()
    .describe(
      'umlagerung, umbuchung, inventur, wmsretoure, wareneingang, kommissionierung, korrektur, seed or import',
    ),
  article: z.string().describe('Article nummer'),
  from: z.string().nullable().describe('Location code the goods left'),
  to: z.string().nullable().describe('Location code the goods arrived at'),
  amount: z.number().int(),
  charge: z.string().nullable(),
  mhd: day,
  user: userName,
  receipt: z.string().nullable().describe('Receipt number (Wareneingang) the goods arrived with'),
  belegnr: z.string().nullable().describe('Delivery note number the goods were picked for'),
});

export const inventoryRow = z.object({
  id: z.number().int(),
  time,
  location: z.string().describe('Location code'),
  article: z.string().describe('Article nummer'),
  counted: z.number().int(),
  previous: z.number().int().describe('Stock before the count'),
  user: userName,
});

export const wmsReturnRow = z.object({
  id: z.number().int(),
  time,
  article: z.string().describe('Article nummer'),
  location: z.string().describe('Location code'),
  amount: z.number().int(),
  charge: z.string().nullable(),
  mhd: day,
  quality: z.number().int(),
  user: userName,
});

export const parcelRow = z.object({
  id: z.number().int(),
  time,
  kind: z.enum(['ausgang', 'retoure']).describe('ausgang: parcel out; retoure: return parcel in'),
  tracking: z.string(),
  carrier: z.string().describe('dhl, ups, dpd, gls, … or no-image'),
  belegnr: z.string().nullable().describe('Delivery note number, if the shipment has one'),
  user: userName,
});

export const customsRow = z.object({
  id: z.number().int(),
  time,
  cart: z.string().describe('Wagennummer of the customs cart'),
  belegnr: z.string(),
  user: userName,
});

export const receiptDifferenceRow = z.object({
  id: z.number().int().describe('Id of the receipt line'),
  time: time.describe('When the receipt was closed, UTC, microseconds'),
  receipt: z.string().describe('Receipt number'),
  supplier: z.string(),
  article: z.string().describe('Article nummer'),
  charge: z.string().nullable(),
  mhd: day,
  expected: z.number().int().describe('Amount announced'),
  received: z.number().int().describe('Amount booked in'),
  short: z.number().int().describe('Short delivery: expected minus received, at least 0'),
  over: z.number().int().describe('Over delivery: received minus expected, at least 0'),
  user: userName.describe('Name of the user who closed the receipt'),
});

export const pickShortageRow = z.object({
  id: z.number().int(),
  time,
  belegnr: z.string().describe('Delivery note number'),
  article: z.string().describe('Article nummer'),
  amount: z.number().int().describe('Pieces reported missing while picking'),
  user: userName.describe('Name of the picker who reported it'),
});

const page = <T extends z.ZodType>(row: T) =>
  z.object({
    items: z.array(row),
    nextCursor: z
      .string()
      .describe(
        'Pass as cursor to continue after the last row; also after the last page, to fetch later rows when they come.',
      ),
    hasMore: z.boolean().describe('true: more rows are there now; fetch the next page right away.'),
  });

const exportEndpoint = <T extends z.ZodType>(feed: Feed, name: string, row: T) =>
  endpoint({
    name,
    method: 'GET',
    path: `/api/export/${feed}`,
    query: exportQuery,
    response: page(row),
    audience: 'integration',
  });

export const exportMovements = exportEndpoint('movements', 'exportMovements', movementRow);
export const exportInventory = exportEndpoint('inventory', 'exportInventory', inventoryRow);
export const exportWmsReturns = exportEndpoint('wmsreturns', 'exportWmsReturns', wmsReturnRow);
export const exportParcels = exportEndpoint('parcels', 'exportParcels', parcelRow);
export const exportCustoms = exportEndpoint('customs', 'exportCustoms', customsRow);
export const exportReceiptDifferences = exportEndpoint(
  'receiptdifferences',
  'exportReceiptDifferences',
  receiptDifferenceRow,
);
export const exportPickShortages = exportEndpoint('pickshortages', 'exportPickShortages', pickShortageRow);

export const exportEndpoints = {
  movements: exportMovements,
  inventory: exportInventory,
  wmsreturns: exportWmsReturns,
  parcels: exportParcels,
  customs: exportCustoms,
  receiptdifferences: exportReceiptDifferences,
  pickshortages: exportPickShortages,
} as const satisfies Record<Feed, unknown>;

export type ExportRow = {
  [F in Feed]: z.output<(typeof exportEndpoints)[F]['response']>['items'][number];
};

/** The columns of each feed, in order: the JSON keys and the CSV header. */
export const exportColumns: Record<Feed, readonly string[]> = {
  movements: Object.keys(movementRow.shape),
  inventory: Object.keys(inventoryRow.shape),
  wmsreturns: Object.keys(wmsReturnRow.shape),
  parcels: Object.keys(parcelRow.shape),
  customs: Object.keys(customsRow.shape),
  receiptdifferences: Object.keys(receiptDifferenceRow.shape),
  pickshortages: Object.keys(pickShortageRow.shape),
};
