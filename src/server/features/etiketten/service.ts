import { type Kysely, sql } from 'kysely';
import {
  type CodeKind,
  type Dpi,
  type LabelKind,
  type LabelSize,
  MAX_RANGE,
  ROLL_SIZES,
  etikettenTexts as t,
} from '../../../contract/etiketten.ts';
import type { ArticleCode } from '../../../contract/ids.ts';
import { cardOwner } from '../../auth/cards.ts';
import type { Database } from '../../db/schema.ts';
import { invalid, notFound } from '../../domain/errors.ts';
import { StepSize, type Steps } from '../../http/back-office.ts';
import { type Article, articleByCode, articlesByNummer } from '../../repositories/article.repository.ts';
import {
  codeAfter,
  inCodeOrder,
  locationsByCodes,
  locationsInCodeRange,
} from '../../repositories/location.repository.ts';
import { checkFits, type Label, validEan13 } from './label.ts';

type Db = Kysely<Database>;

/** What to print, as the calls name it: the records by code, or a range of location codes. */
export interface LabelSelection {
  kind: LabelKind;
  codes?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  pfeil?: 'hoch' | 'runter' | undefined;
}

/** The labels of a checked selection: how many, and the labels themselves (a range is read page by page). */
export interface PreparedLabels {
  count: number;
  labels: () => AsyncIterable<Label>;
}

/** The most locations one step of a range reads (fewer when its barcodes take longer to check). */
const RANGE_PAGE_MAX = 2000;

/** The size a format defaults to: the common A4 sheet for PDF, the larger roll for ZPL. */
export function defaultSize(format: 'pdf' | 'zpl'): LabelSize {
  return format === 'pdf' ? 'a4-70x36' : '100x50';
}

/** ZPL is for roll printers: refuses a sheet size and a dpi outside ZPL (a 400 in German). */
export function checkFormat(format: 'pdf' | 'zpl', size: LabelSize, dpi: Dpi | undefined): void {
  if (format === 'zpl' && !(ROLL_SIZES as readonly string[]).includes(size)) throw invalid(t.zplNeedsRoll);
  if (format === 'pdf' && dpi !== undefined) throw invalid(t.dpiOnlyZpl);
}

/**
 * Checks the selection — every named record exists and each code fits a scannable barcode at this size —
 * before the first byte of a file goes out, so a refusal is a German 400/404, never a broken download.
 * Every read and check runs in `steps` (DESIGN §10): named records in one (at most MAX_CODES), a range a
 * page at a time — 20,000 barcodes checked at once held the server's thread for a second.
 */
export async function prepareLabels(
  steps: Steps,
  db: Db,
  selection: LabelSelection,
  size: LabelSize,
): Promise<PreparedLabels> {
  const { kind, codes, from, to, pfeil } = selection;
  const range = from !== undefined || to !== undefined;
  if (pfeil && kind !== 'lagerplatz') throw invalid(t.arrowOnlyLocations);
  if (codes && range) throw invalid(t.codesAndRange);
  if (range) {
    if (kind !== 'lagerplatz' && kind !== 'lhm') throw invalid(t.rangeOnlyLocations);
    if (from === undefined || to === undefined) throw invalid(t.rangeIncomplete);
    return prepareRange(steps, db, kind, from, to, pfeil ?? null, size);
  }
  if (!codes || codes.length === 0) {
    if (kind !== 'zollwagen' && kind !== 'kommissionierwagen' && kind !== 'fach')
      throw invalid(t.codesOrRange);
    // Carts without codes: all of them (the Leitstand's 'Alle Zollwagen'); all pick carts, all compartments.
    const all = await steps.run(() => allCodes(db, kind));
    return prepareLabels(steps, db, { kind, codes: all }, size);
  }
  const seen = new Set<string>();
  for (const code of codes) {
    if (seen.has(code)) throw invalid(kind === 'ausweis' ? t.duplicateCard : t.duplicate(code));
    seen.add(code);
  }
  const labels = await steps.run(async () => {
    const labels = await labelsByCode(db, kind, codes, pfeil ?? null);
    for (const label of labels) checkFits(label, size);
    return labels;
  });
  return {
    count: labels.length,
    labels: async function* () {
      yield* labels;
    },
  };
}

async function labelsByCode(
  db: Db,
  kind: LabelKind,
  codes: string[],
  arrow: Label['arrow'],
): Promise<Label[]> {
  switch (kind) {
    case 'lagerplatz':
    case 'lhm': {
      const byCode = await locationsByCodes(db, codes);
      refuseUnknown(kind, codes, byCode);
      for (const location of byCode.values()) {
        if (kind === 'lagerplatz' && location.isLhm) throw invalid(t.isLhm(location.code));
        if (kind === 'lhm' && !location.isLhm) throw invalid(t.notLhm(location.code));
      }
      return codes.map((code) => locationLabel(kind, byCode.get(code) as LocationRow, arrow));
    }
    case 'artikel': {
      const byCode = await articlesByNummer(db, codes);
      refuseUnknown(kind, codes, byCode);
      const labels: Label[] = [];
      for (const code of codes) {
        const article = byCode.get(code) as Article;
        // The EAN only when scanning it finds this very article (findarticle: nummer first, then EAN): a
        // shared or colliding EAN would find another or none, so such an article gets its number.
        const ean =
          validEan13(article.ean) && (await articleByCode(db, article.ean as ArticleCode)).id === article.id
            ? article.ean
            : null;
        labels.push({
          kind,
          symbol: ean ? { type: 'ean13', data: ean } : { type: 'code128', data: article.nummer },
          title: article.name,
          lines: ean
            ? [`${ean} · ${t.label.artikelNummer(article.nummer)}`]
            : [t.label.artikelNummer(article.nummer)],
          arrow: null,
        });
      }
      return labels;
    }
    case 'zollwagen': {
      const rows = await db
        .selectFrom('carts')
        .select(['wagennummer', 'bezeichnung'])
        .where('wagennummer', 'in', codes)
        .execute();
      const byCode = new Map(rows.map((row) => [row.wagennummer, row]));
      refuseUnknown(kind, codes, byCode);
      return codes.map((code) => {
        const cart = byCode.get(code) as (typeof rows)[number];
        return {
          kind,
          symbol: { type: 'code128', data: cart.wagennummer },
          title: cart.wagennummer,
          lines: cart.bezeichnung && cart.bezeichnung !== cart.wagennummer ? [cart.bezeichnung] : [],
          arrow: null,
        };
      });
    }
    case 'kommissionierwagen': {
      const rows = await db
        .selectFrom('pick_carts as c')
        .select((eb) => [
          'c.code',
          eb
            .selectFrom('pick_cart_compartments as f')
            .whereRef('f.cart_id', '=', 'c.id')
            .select((f) => f.fn.countAll<number>().as('n'))
            .as('compartments'),
        ])
        .where('c.code', 'in', codes)
        .execute();
      const byCode = new Map(rows.map((row) => [row.code, row]));
      refuseUnknown(kind, codes, byCode);
      return codes.map((code) => ({
        kind,
        symbol: { type: 'code128', data: code },
        title: code,
        lines: [t.label.kommissionierwagen(Number(byCode.get(code)?.compartments ?? 0))],
        arrow: null,
      }));
    }
    case 'fach': {
      const rows = await db
        .selectFrom('pick_cart_compartments as f')
        .innerJoin('pick_carts as c', 'c.id', 'f.cart_id')
        .select(['f.code', 'f.number', 'c.code as cart'])
        .where('f.code', 'in', codes)
        .execute();
      const byCode = new Map(rows.map((row) => [row.code, row]));
      refuseUnknown(kind, codes, byCode);
      return codes.map((code) => {
        const compartment = byCode.get(code) as (typeof rows)[number];
        return {
          kind,
          symbol: { type: 'code128', data: code },
          title: code,
          lines: [t.label.fach(compartment.number, compartment.cart)],
          arrow: null,
        };
      });
    }
    case 'ausweis': {
      const labels: Label[] = [];
      let unknown = 0;
      for (const card of codes) {
        const owner = await cardOwner(db, card);
        if (!owner) {
          unknown++;
          continue;
        }
        // The card text as the login screen reads it (cardOwner trims it too).
        labels.push({
          kind,
          symbol: { type: 'qrcode', data: card.trim() },
          title: owner.name,
          lines: [t.label.ausweis],
          arrow: null,
        });
      }
      // A card text is a secret: the refusal counts the unknown cards, it never repeats them.
      if (unknown > 0) throw notFound(t.unknownCards(unknown));
      return labels;
    }
  }
}

/** Every customs cart, pick cart or compartment: what a label request without codes prints. */
async function allCodes(db: Db, kind: 'zollwagen' | 'kommissionierwagen' | 'fach'): Promise<string[]> {
  if (kind === 'zollwagen')
    return (await db.selectFrom('carts').select('wagennummer').orderBy('wagennummer').execute()).map(
      (c) => c.wagennummer,
    );
  if (kind === 'kommissionierwagen')
    return (await db.selectFrom('pick_carts').select('code').orderBy('code').execute()).map((c) => c.code);
  const compartments = await db
    .selectFrom('pick_cart_compartments as f')
    .innerJoin('pick_carts as c', 'c.id', 'f.cart_id')
    .select('f.code')
    .orderBy('c.code')
    .orderBy('f.number')
    .execute();
  return compartments.map((f) => f.code);
}

interface LocationRow {
  code: string;
  name: string;
}

function locationLabel(kind: 'lagerplatz' | 'lhm', row: LocationRow, arrow: Label['arrow']): Label {
  const name = row.name && row.name !== row.code ? row.name : kind === 'lhm' ? t.label.lhm : '';
  return {
    kind,
    symbol: { type: 'code128', data: row.code },
    title: row.code,
    lines: name ? [name] : [],
    arrow: kind === 'lagerplatz' ? arrow : null,
  };
}

function refuseUnknown(kind: CodeKind, codes: string[], known: Map<string, unknown>): void {
  const missing = codes.filter((code) => !known.has(code));
  if (missing.length > 0) throw notFound(t.unknown(kind, missing));
}

/**
 * Locations from `from` to `to` in byte order of their codes (COLLATE "C": the same order on PGlite and
 * PostgreSQL whatever the database's locale), both ends named and existing. Checked in one pass over the codes
 * (each must fit a barcode) before the labels are read again, a page at a time, while the file is written.
 */
async function prepareRange(
  steps: Steps,
  db: Db,
  kind: 'lagerplatz' | 'lhm',
  from: string,
  to: string,
  arrow: Label['arrow'],
  size: LabelSize,
): Promise<PreparedLabels> {
  const lhm = kind === 'lhm';
  const inRange = locationsInCodeRange(db, lhm, from, to);
  const count = await steps.run(async () => {
    const known = await locationsByCodes(db, [from, to]);
    refuseUnknown(kind, from === to ? [from] : [from, to], known);
    for (const location of known.values()) {
      if (kind === 'lagerplatz' && location.isLhm) throw invalid(t.isLhm(location.code));
      if (kind === 'lhm' && !location.isLhm) throw invalid(t.notLhm(location.code));
    }
    const { ordered } = await sql<{
      ordered: boolean;
    }>`select ${from} collate "C" <= ${to} collate "C" as ordered`
      .execute(db)
      .then((r) => r.rows[0] ?? { ordered: false });
    if (!ordered) throw invalid(t.rangeOrder(from, to));
    const { count } = await inRange
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  });
  if (count > MAX_RANGE) throw invalid(t.rangeTooLarge(count));

  /** The range's labels a page at a time, each page read (and its labels checked) in one step. */
  async function* pages(check?: (label: Label) => void): AsyncGenerator<Label[]> {
    const size = new StepSize({ max: RANGE_PAGE_MAX, start: 100 });
    let after: string | null = null;
    for (;;) {
      const page = await steps.run(() =>
        size.timed(async (limit) => {
          const rows: LocationRow[] = await inRange
            .select(['code', 'name'])
            .$if(after !== null, (q) => q.where(codeAfter(after as string)))
            .orderBy(inCodeOrder)
            .limit(limit)
            .execute();
          const labels = rows.map((row) => locationLabel(kind, row, arrow));
          if (check) for (const label of labels) check(label);
          return {
            rows: rows.length,
            labels,
            last: rows.at(-1)?.code ?? null,
            complete: rows.length < limit,
          };
        }),
      );
      if (page.labels.length > 0) yield page.labels;
      if (page.complete) return;
      after = page.last;
    }
  }
  for await (const _ of pages((label) => checkFits(label, size))) {
    // each page's labels were checked in its step
  }
  return {
    count,
    labels: async function* () {
      for await (const labels of pages()) yield* labels;
    },
  };
}
