// Over 400 lines: the row type of every table, in one place, as the migrations leave them.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Language } from '../../contract/i18n/languages.ts';
import type { Role } from '../../contract/roles.ts';

/** Row types of the database, as Kysely sees them. The SQL lives in migrations/. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<number>;
  name: string;
  username: string | null;
  password_hash: string | null;
  card_secret_hash: string | null;
  active: Generated<boolean>;
  /** DESIGN §9; existing users became `mitarbeiter`. */
  role: Generated<Role>;
  /** The language the user reads (issue 43, decision 35): 'de' unless set. */
  language: Generated<Language>;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** Failed attempts at a secret per budget and subject (src/server/auth/attempt-limits.ts). */
export interface AttemptCountersTable {
  /** Which budget: 'password-user', 'card-address', … */
  kind: string;
  /** Whose: a user name, a client address, a user id. */
  subject: string;
  failures: Generated<number>;
  window_start: Generated<Date>;
  last_failure_at: Date | null;
  locked_until: Timestamp | null;
  /** Attempts being checked right now (counted before the check, so parallel ones cannot pass the limit). */
  pending: Generated<number>;
  pending_at: Date | null;
}

export interface ArticlesTable {
  id: Generated<number>;
  nummer: string;
  herstellernummer: string | null;
  ean: string | null;
  name: string;
  kurzbezeichnung: string;
  charge_required: Generated<boolean>;
  mhd_required: Generated<boolean>;
}

export interface LocationsTable {
  id: Generated<number>;
  code: string;
  name: string;
  lagertyp: string;
  is_lhm: Generated<boolean>;
  /** Marked for a count since then: a picker found less than its book stock (issue 36); an Inventur count clears it. */
  zaehlen_seit: Timestamp | null;
}

export interface StockTable {
  id: Generated<number>;
  location_id: number;
  article_id: number;
  charge: string | null;
  mhd: ColumnType<string | null, string | null | undefined, string | null>;
  amount: number;
  updated_at: Generated<Date>;
}

/** 'import': a stock row of `npm run import -- stock` set the amount (the difference is journalled). */
export type MovementKind =
  | 'umlagerung'
  | 'umbuchung'
  | 'inventur'
  | 'wmsretoure'
  | 'korrektur'
  | 'seed'
  | 'import'
  | 'wareneingang'
  /** Picked for a delivery note (Kommissionierung): left `from`, `to` is null. */
  | 'kommissionierung';

export interface MovementsTable {
  id: Generated<number>;
  kind: MovementKind;
  article_id: number;
  from_location_id: number | null;
  to_location_id: number | null;
  /** Always positive: what left `from` and/or arrived at `to`. */
  amount: number;
  charge: string | null;
  mhd: ColumnType<string | null, string | null | undefined, string | null>;
  user_id: number | null;
  request_key: string | null;
  at: CreatedAt;
  /** The receipt the goods arrived with (kind 'wareneingang'); null before migration 2026-11-28-01. */
  receipt_id: number | null;
  /** The delivery note the goods were picked for (kind 'kommissionierung': by the pick, or by packing what was not picked). */
  delivery_note_id: number | null;
  /** The cart compartment a pick was put into, and the cart's trip (Rollende Kommissionierung, 2026-11-28-04). */
  compartment_id: number | null;
  pick_trip_id: number | null;
  /** A cart put's reversal ('Rückgängig', 2026-11-28-06): the put it reverses, at most once. */
  reverses_movement_id: number | null;
  /** The count task whose posting wrote this row (kind 'inventur', Permanente Inventur, 2026-11-28-08). */
  count_task_id: number | null;
}

/** A 'Fehlmenge' reported while picking, journalled by the Fehlmenge itself (kommissionierung/service.ts). */
export interface PickShortagesTable {
  id: Generated<number>;
  delivery_note_id: number;
  article_id: number;
  amount: number;
  user_id: number | null;
  at: CreatedAt;
}

/** A closed receipt's line that arrived short or over, written when the receipt is closed (2026-11-28-01). */
export interface ReceiptDifferencesTable {
  id: Generated<number>;
  receipt_id: number;
  receipt_line_id: number;
  article_id: number;
  charge: string | null;
  mhd: ColumnType<string | null, string | null | undefined, string | null>;
  expected: number;
  received: number;
  fehlmenge: number;
  mehrmenge: number;
  /** Who closed the receipt. */
  user_id: number | null;
  at: CreatedAt;
}

export interface InventoryCountsTable {
  id: Generated<number>;
  location_id: number;
  article_id: number;
  counted: number;
  previous: number;
  user_id: number;
  request_key: string | null;
  at: CreatedAt;
}

export interface WmsReturnsTable {
  id: Generated<number>;
  article_id: number;
  location_id: number;
  amount: number;
  charge: string | null;
  mhd: string | null;
  quality: number;
  user_id: number;
  request_key: string | null;
  at: CreatedAt;
}

export interface BatchesTable {
  id: string;
  created_at: CreatedAt;
}

export interface BatchEventsTable {
  id: Generated<number>;
  batch_id: string;
  kind: 'erfasst' | 'mitarbeiter';
  employee_user_id: number | null;
  user_id: number;
  at: CreatedAt;
}

export interface ContainerEventsTable {
  id: Generated<number>;
  container: string;
  batch_id: string;
  user_id: number;
  at: CreatedAt;
}

export interface TransporterEventsTable {
  id: Generated<number>;
  kennzeichen: string;
  container: string;
  plombe: string;
  fill_value: number;
  user_id: number;
  at: CreatedAt;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
}

export interface CartonsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  height: number;
  width: number;
  depth: number;
  image: string | null;
}

/** 'klaerfall' also after the Klärfall was closed as 'erledigt'; 'zurueck' sets 'offen' again (decision 20). */
export type DeliveryNoteStatus = 'offen' | 'gepackt' | 'klaerfall';

export interface DeliveryNotesTable {
  id: Generated<number>;
  belegnr: string;
  batch_id: string | null;
  project_id: number | null;
  eu: boolean;
  versandart: string;
  gravur: Generated<boolean>;
  status: Generated<DeliveryNoteStatus>;
  klaerfall_at: Timestamp | null;
  created_at: CreatedAt;
  /** When every line was picked or reported missing (Kommissionierung), and by whom; null: not yet. */
  picked_at: Timestamp | null;
  picked_by: number | null;
  /** Lines with something packed (pemenge > 0), kept by a trigger: above 0 on an open note, it is in packing. */
  lines_started: Generated<number>;
}

export interface DeliveryNoteLinesTable {
  id: Generated<number>;
  delivery_note_id: number;
  article_id: number;
  lsmenge: number;
  pemenge: Generated<number>;
  /** Picked so far (Kommissionierung); kommissioniert + fehlmenge ≤ lsmenge. */
  kommissioniert: Generated<number>;
  /** Reported missing while picking ('Fehlmenge'). */
  fehlmenge: Generated<number>;
}

/** Who is picking a delivery note now (decision 25): one row per note; the login's end deletes it. */
export interface PickClaimsTable {
  delivery_note_id: number;
  user_id: number;
  session_id: number;
  claimed_at: Timestamp;
  /** The holder's last call for this note; a claim unused for PICK_CLAIM_MINUTES is free. */
  seen_at: Timestamp;
}

/** A pick cart (Kommissionierwagen, decision 33): master data, scanned by its code (`KW01`). */
export interface PickCartsTable {
  id: Generated<number>;
  code: string;
  created_at: CreatedAt;
}

/** A cart's compartment (Fach), numbered from 1 per cart; its code (`KW01-3`) is unique. */
export interface PickCartCompartmentsTable {
  id: Generated<number>;
  cart_id: number;
  number: number;
  code: string;
}

/** The shift lead's filter of pickable notes (Picklistenprofil); null in a filter: any. */
export interface PickProfilesTable {
  id: Generated<number>;
  name: string;
  versandart: string | null;
  max_lines: number | null;
  eu: boolean | null;
  /** A time of day ('14:00:00'): notes that arrived before it today or earlier. */
  arrived_before: string | null;
  notes_per_cart: number;
  changed_by: number;
  changed_at: Generated<Date>;
}

/** A wave released from a profile ('Welle freigeben'); the profile's name is kept in case it is renamed. */
export interface PickWavesTable {
  id: Generated<number>;
  profile_id: number | null;
  profile_name: string;
  released_by: number;
  released_at: Generated<Date>;
  /** The profile's "at most N notes per cart" when the wave was released. */
  notes_per_cart: number;
}

/** A stop the picker put off to the end of the route ('Später'), in the order put off. */
export interface PickTripDeferralsTable {
  trip_id: number;
  location_id: number;
  deferred_at: Generated<Date>;
}

/** A note's wave: at most one (primary key); deletable only while no cart ever held the note. */
export interface PickWaveNotesTable {
  delivery_note_id: number;
  wave_id: number;
}

/** One walk with a cart: its picker and login; at most one open (not finished) trip per cart. */
export interface PickTripsTable {
  id: Generated<number>;
  cart_id: number;
  user_id: number;
  session_id: number | null;
  started_at: Generated<Date>;
  finished_at: Timestamp | null;
}

/**
 * Which note lies in which compartment on a trip, until packing ('gepackt'), 'Abbrechen' ('abgebrochen'), its
 * Klärfall closed as 'Erledigt' ('klaerfall') or the shift lead's 'Fach leeren' ('geleert') frees it.
 */
export interface PickTripNotesTable {
  id: Generated<number>;
  trip_id: number;
  cart_id: number;
  compartment_id: number;
  delivery_note_id: number;
  wave_id: number | null;
  placed_at: Generated<Date>;
  freed_at: Timestamp | null;
  freed_reason: 'gepackt' | 'abgebrochen' | 'klaerfall' | 'geleert' | null;
}

export interface CartonUsageTable {
  delivery_note_id: number;
  carton_id: number;
  amount: number;
  user_id: number | null;
  updated_at: Generated<Date>;
}

export interface ShipmentsTable {
  id: Generated<number>;
  tracking: string;
  delivery_note_id: number | null;
  /** Image name of the carrier; null: derived from the tracking number. */
  carrier: string | null;
}

export interface DeliveryNoteEventsTable {
  id: Generated<number>;
  delivery_note_id: number;
  kind: 'abkuerzung' | 'klaerfall' | 'kartonagen';
  user_id: number;
  at: CreatedAt;
}

/**
 * One report of a delivery note as a Klärfall at the packing station, and how the shift lead closed it
 * (decision 20). At most one open (outcome null) per note.
 */
export interface KlaerfaelleTable {
  id: Generated<number>;
  delivery_note_id: number;
  /** Null only for a note that was a Klärfall before this table, without a journal row naming the packer. */
  reported_by: number | null;
  reported_at: CreatedAt;
  /** 'erledigt': closed without packing; 'zurueck': back into packing, counters reset. Null: open. */
  outcome: 'erledigt' | 'zurueck' | null;
  resolved_by: number | null;
  resolved_at: Timestamp | null;
  /** Required for 'erledigt'. */
  comment: string | null;
  /** Where it was raised: the packing station, or a Fehlmenge while picking (decision 25). */
  quelle: Generated<'packen' | 'kommissionierung'>;
}

/** A Klärfall's note lines as they were when it was reported. */
export interface KlaerfallLinesTable {
  id: Generated<number>;
  klaerfall_id: number;
  article_id: number;
  lsmenge: number;
  pemenge: number;
  /** A picker's Fehlmenge: the location where it was missing, and its book stock of the article then. */
  location_id: number | null;
  bestand: number | null;
}

export interface ParcelScansTable {
  id: Generated<number>;
  shipment_id: number;
  kind: 'ausgang' | 'retoure';
  user_id: number;
  at: CreatedAt;
}

export interface CartsTable {
  id: Generated<number>;
  wagennummer: string;
  bezeichnung: string;
  status: Generated<'offen' | 'abgeschlossen'>;
  opened_by: number | null;
  opened_at: Timestamp | null;
  closed_at: Timestamp | null;
}

export interface CustomsParcelsTable {
  id: Generated<number>;
  cart_id: number;
  delivery_note_id: number;
  user_id: number;
  at: CreatedAt;
}

export interface IdempotencyTable {
  key: string;
  user_id: number;
  route: string;
  request_hash: string;
  status_code: number;
  response: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface ReplenishmentMinimumsTable {
  location_id: number;
  article_id: number;
  minimum: number;
}

export interface IntegrationTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** A write in the Leitstand or its admin part: who, what, when (the Leitstand's audit list). */
export interface AuditLogTable {
  id: Generated<string>;
  at: CreatedAt;
  user_id: number;
  /** What was done, a stable English key ('klaerfall.resolve', 'user.role', …). */
  action: string;
  /** What it was done to, as staff name it (a delivery note number, a username). */
  subject: string;
  detail: Generated<Record<string, unknown>>;
  request_key: string | null;
}

/** One refused login (the Leitstand's Übersicht counts the last hour's); purged after a day. */
export interface FailedLoginsTable {
  id: Generated<string>;
  at: CreatedAt;
  kind: 'password' | 'card';
  /** As typed (password logins), else null. */
  username: string | null;
}

/** A receipt the ERP announced (issue 22): `offen` until 'Abschließen', then read-only. */
export interface ReceiptsTable {
  id: Generated<number>;
  nummer: string;
  lieferant: Generated<string>;
  status: Generated<'offen' | 'abgeschlossen'>;
  created_at: CreatedAt;
  closed_at: Timestamp | null;
  closed_by: number | null;
}

/** One expected line of a receipt; `fehlmenge`/`mehrmenge` are recorded when the receipt is closed. */
export interface ReceiptLinesTable {
  id: Generated<number>;
  receipt_id: number;
  article_id: number;
  charge: string | null;
  mhd: ColumnType<string | null, string | null | undefined, string | null>;
  expected: number;
  received: Generated<number>;
  fehlmenge: number | null;
  mehrmenge: number | null;
}

/** A network label printer set up in the Leitstand (issue 21). */
export interface PrintersTable {
  id: Generated<number>;
  name: string;
  host: string;
  port: number;
  dpi: number;
  groesse: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** An import at work (docs/decisions/0030-import-in-steps.md); JSON columns as text. */
export interface ImportRunsTable {
  id: Generated<number>;
  kind: string;
  file_name: string;
  request_key: string | null;
  user_id: number | null;
  state: 'staging' | 'applying';
  settings: string;
  facts: string | null;
  batches: Generated<number>;
  applied: Generated<number>;
  written: Generated<number>;
  summary: Generated<string>;
  raced: Generated<string>;
  started_at: Generated<Date>;
  touched_at: Generated<Date>;
}

/** A few units of an import's checked rows (JSON), staged until they are written. */
export interface ImportBatchesTable {
  run_id: number;
  batch: number;
  rows: string;
}

/** What a count plan (Zählplan) selects locations by (decision 34). */
export type CountPlanKind = 'bereich' | 'nicht_gezaehlt' | 'null_oder_korrigiert' | 'abc';
export type AbcClass = 'A' | 'B' | 'C';

/**
 * A shift lead's count plan: which locations 'Aufträge anlegen' makes tasks for. `location_from`/`location_to`:
 * a code range, inclusive (required for 'bereich', an optional filter for the others); `days`: not counted for
 * N days ('nicht_gezaehlt') or went to zero / was corrected in the last N days ('null_oder_korrigiert');
 * `abc_class`: that class's locations not counted within its frequency ('abc'). Due: today + `due_days`.
 */
export interface CountPlansTable {
  id: Generated<number>;
  name: string;
  kind: CountPlanKind;
  location_from: string | null;
  location_to: string | null;
  days: number | null;
  abc_class: AbcClass | null;
  due_days: Generated<number>;
  assigned_user_id: number | null;
  created_by: number;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

/** Why a count task exists. */
export type CountTaskReason = 'plan' | 'fehlmenge' | 'nachzaehlung';

/**
 * Where a count task stands (decision 34). Open: 'offen' (to be counted), 'in_arbeit' (claimed by a counter),
 * 'wartet' (a recount above tolerance, waiting for the shift lead). Closed: 'gebucht' (posted), 'nachzaehlung'
 * (above tolerance, a recount task took over), 'veraltet' (a booking on the location during the count; a
 * recount task took over), 'verworfen' (dropped by the shift lead).
 */
export type CountTaskStatus =
  | 'offen'
  | 'in_arbeit'
  | 'nachzaehlung'
  | 'wartet'
  | 'gebucht'
  | 'veraltet'
  | 'verworfen';

/** One location to count. At most one open ('offen', 'in_arbeit', 'wartet') per location (a unique index). */
export interface CountTasksTable {
  id: Generated<number>;
  location_id: number;
  plan_id: number | null;
  reason: CountTaskReason;
  due_on: ColumnType<string, string, string>;
  assigned_user_id: number | null;
  status: Generated<CountTaskStatus>;
  /** The counter holding it ('in_arbeit') and the login they claimed it with (a gone login frees it). */
  claimed_by: number | null;
  claim_login: number | null;
  claimed_at: Timestamp | null;
  /** When the location was scanned, and the highest journal row id then: a later row on it makes it stale. */
  started_at: Timestamp | null;
  start_movement_id: number | null;
  finished_at: Timestamp | null;
  counted_by: number | null;
  /** The task this one recounts, and who counted that one (a recount never goes to them). */
  recount_of: number | null;
  not_user_id: number | null;
  /** The shift lead who posted it ('Buchen'); null for a count posted at once within tolerance. */
  approved_by: number | null;
  approved_at: Timestamp | null;
  created_at: CreatedAt;
}

/**
 * A counted article of a task: `counted` is the sum of its scans (a blind count, piece by piece or box by
 * box); `book` the book stock at 'Fertig' (never sent to the handheld). At 'Fertig' every article with stock
 * on the location gets a line too (counted 0 where it was not found). `unexpected`: no stock row there.
 */
export interface CountLinesTable {
  id: Generated<number>;
  task_id: number;
  article_id: number;
  counted: number;
  book: number | null;
  unexpected: Generated<boolean>;
  request_key: string | null;
  at: Generated<Date>;
}

/**
 * Count frequency and tolerance per ABC class ('-': a location without a class). A difference is within
 * tolerance when |diff| ≤ tolerance_pieces or |diff| ≤ tolerance_percent × book / 100. `tolerance_percent` is
 * numeric: read as a string.
 */
export interface CountClassesTable {
  abc_class: AbcClass | '-';
  frequency_days: number;
  tolerance_pieces: number;
  tolerance_percent: ColumnType<string, string | number, string | number>;
  updated_at: Generated<Date>;
}

/** A location's ABC class, written by 'ABC-Klassen berechnen' (a location without a row has class '-'). */
export interface LocationAbcTable {
  location_id: number;
  abc_class: AbcClass;
  computed_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  attempt_counters: AttemptCountersTable;
  articles: ArticlesTable;
  locations: LocationsTable;
  stock: StockTable;
  movements: MovementsTable;
  inventory_counts: InventoryCountsTable;
  wms_returns: WmsReturnsTable;
  batches: BatchesTable;
  batch_events: BatchEventsTable;
  container_events: ContainerEventsTable;
  transporter_events: TransporterEventsTable;
  projects: ProjectsTable;
  cartons: CartonsTable;
  delivery_notes: DeliveryNotesTable;
  delivery_note_lines: DeliveryNoteLinesTable;
  carton_usage: CartonUsageTable;
  shipments: ShipmentsTable;
  parcel_scans: ParcelScansTable;
  carts: CartsTable;
  customs_parcels: CustomsParcelsTable;
  idempotency: IdempotencyTable;
  settings: SettingsTable;
  replenishment_minimums: ReplenishmentMinimumsTable;
  delivery_note_events: DeliveryNoteEventsTable;
  integration_tokens: IntegrationTokensTable;
  audit_log: AuditLogTable;
  failed_logins: FailedLoginsTable;
  klaerfaelle: KlaerfaelleTable;
  klaerfall_lines: KlaerfallLinesTable;
  receipts: ReceiptsTable;
  receipt_lines: ReceiptLinesTable;
  receipt_differences: ReceiptDifferencesTable;
  printers: PrintersTable;
  pick_claims: PickClaimsTable;
  pick_shortages: PickShortagesTable;
  pick_carts: PickCartsTable;
  pick_cart_compartments: PickCartCompartmentsTable;
  pick_profiles: PickProfilesTable;
  pick_waves: PickWavesTable;
  pick_wave_notes: PickWaveNotesTable;
  pick_trips: PickTripsTable;
  pick_trip_notes: PickTripNotesTable;
  pick_trip_deferrals: PickTripDeferralsTable;
  import_runs: ImportRunsTable;
  import_batches: ImportBatchesTable;
  count_plans: CountPlansTable;
  count_tasks: CountTasksTable;
  count_lines: CountLinesTable;
  count_classes: CountClassesTable;
  location_abc: LocationAbcTable;
}

export type User = Selectable<UsersTable>;
export type NewArticle = Insertable<ArticlesTable>;
