import { type Kysely, sql } from 'kysely';
import { hashCardSecret, hashPassword } from '../auth/secrets.ts';
import type { Database } from '../db/schema.ts';
import { ean13, seededRandom } from './random.ts';

/**
 * The demo warehouse (DESIGN §7): fixed records the demo tour (docs/using.md) and the acceptance tests rely on, plus a
 * generated, realistic rest (same on every machine). Stock is journalled like any booking ('seed'), so the
 * journal and the stock table agree from the first minute.
 */
export const demo = {
  passwordUser: { username: 'demo', password: 'demo', name: 'Demo Nutzer' },
  /** DESIGN §9: a shift lead and an IT admin beside the worker `demo` (role mitarbeiter). */
  leadUser: { username: 'leitung', password: 'leitung', name: 'Schicht Leitung', role: 'schichtleitung' },
  adminUser: { username: 'admin', password: 'admin', name: 'IT Admin', role: 'admin' },
  cardUser: { name: 'Karten Nutzer', card: 'DEMOKARTE'.repeat(25) },
  article: { nummer: '100001', ean: '4006381333931', name: 'Kugelschreiber blau' },
  flaggedArticle: { nummer: '100002' },
  ambiguousHerstellernummer: 'HN-DUP',
  article3: { nummer: '100003', ean: '4012345678901' },
  locations: {
    main: 'A-01-01-01',
    second: 'A-01-01-02',
    empty: 'B-02-01-01',
    lhm: 'LHM000001',
    /** A pallet known by the SSCC on its GS1 label (scanned where an LHM is asked). */
    palletSscc: '340123450000000017',
  },
  deliveryNotes: {
    eu: 'LS100001',
    nonEu: 'LS100002',
    /** Kommissionierung (issue 22): lines on three locations in aisles A and B, see `picking`. */
    pickable: 'LS100003',
    noCartons: 'LS100098',
    empty: 'LS100099',
  },
  /**
   * The pickable note's lines, in the note's order, and where their articles lie (nowhere else): walking
   * order is A-03-02-01 (100007 × 8, above five: one confirmed scan), A-04-01-02, then aisle B.
   */
  picking: [
    { nummer: '100006', name: 'Klebeband transparent', menge: 2, location: 'B-01-02-01', stock: 40 },
    { nummer: '100008', name: 'Kopierpapier A4 500 Blatt', menge: 3, location: 'A-04-01-02', stock: 25 },
    { nummer: '100007', name: 'Ordner A4 blau', menge: 8, location: 'A-03-02-01', stock: 60 },
  ],
  batch: '123456',
  tracking: '00340434161094042557',
  /** Wareneingang (issue 22): 100001 × 20, and 100002 × 5 with the Charge and MHD the supplier announced. */
  receipt: { nummer: 'WE100001', lieferant: 'Bürobedarf Schulz GmbH', charge: 'L2611A', mhd: '2027-06-30' },
} as const;

const NOUNS = [
  ['Kugelschreiber', 'Stk'],
  ['Bleistift', 'Stk'],
  ['Textmarker', 'Stk'],
  ['Ordner A4', 'Stk'],
  ['Kopierpapier A4', 'Pack'],
  ['Notizblock', 'Stk'],
  ['Klebeband', 'Rolle'],
  ['Heftklammern', 'Pack'],
  ['Briefumschlag C5', 'Pack'],
  ['Versandkarton', 'Stk'],
  ['Luftpolsterfolie', 'Rolle'],
  ['Etikettenrolle', 'Rolle'],
  ['Druckerpatrone', 'Stk'],
  ['USB-Kabel', 'Stk'],
  ['Batterie AA', 'Pack'],
  ['Kaffeebohnen', 'Beutel'],
  ['Müsliriegel', 'Karton'],
  ['Handseife', 'Flasche'],
  ['Schutzhandschuhe', 'Paar'],
  ['Kabelbinder', 'Pack'],
] as const;
const VARIANTS = [
  'blau',
  'rot',
  'schwarz',
  'grün',
  'gelb',
  'weiß',
  'groß',
  'klein',
  'Premium',
  'Eco',
  'XL',
  '10er',
];
const FOOD = new Set(['Kaffeebohnen', 'Müsliriegel']);
const LAGERTYPEN = ['Fachboden', 'Palette', 'Kommissionierung'] as const;
const CARRIERS = ['dhl', 'gls', 'dpd', 'ups'] as const;
const EU_VERSANDARTEN = ['DHL037', 'DHL001', 'GLS01', 'DPD01'];
const NON_EU_VERSANDARTEN = ['DHL042', 'DHL053', 'UPS65'];

const CHUNK = 500;

async function insertChunked<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  rows: Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      // biome-ignore lint/suspicious/noExplicitAny: generic bulk insert over any table of the schema
      .values(rows.slice(i, i + CHUNK) as any)
      .execute();
  }
}

/** True when the database holds no users and no articles: only then the demo data is seeded. */
export async function isEmptyDatabase(db: Kysely<Database>): Promise<boolean> {
  const row = await sql<{ users: number; articles: number }>`
    select (select count(*) from users)::int as users, (select count(*) from articles)::int as articles`.execute(
    db,
  );
  const counts = row.rows[0];
  return counts !== undefined && counts.users === 0 && counts.articles === 0;
}

/**
 * Deletes every row of every table (for --reset), except the migration bookkeeping and the settings (the
 * CSRF secret). Read from the catalog, so a table added by a later migration is included by itself.
 */
export async function resetData(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_%' and tablename <> 'settings'`.execute(
    db,
  );
  if (rows.length === 0) return;
  const tables = rows.map((r) => `"${r.name.replaceAll('"', '""')}"`).join(', ');
  await sql.raw(`truncate ${tables} restart identity cascade`).execute(db);
}

export async function seedDemo(db: Kysely<Database>): Promise<{ articles: number; locations: number }> {
  const rnd = seededRandom(20261123);
  const passwordHash = await hashPassword(demo.passwordUser.password);
  const leadHash = await hashPassword(demo.leadUser.password);
  const adminHash = await hashPassword(demo.adminUser.password);

  return db.transaction().execute(async (trx) => {
    // ── Users ──
    await trx
      .insertInto('users')
      .values([
        { name: demo.passwordUser.name, username: demo.passwordUser.username, password_hash: passwordHash },
        { name: demo.cardUser.name, card_secret_hash: hashCardSecret(demo.cardUser.card) },
        ...[
          { ...demo.leadUser, hash: leadHash },
          { ...demo.adminUser, hash: adminHash },
        ].map((u) => ({ name: u.name, username: u.username, password_hash: u.hash, role: u.role })),
      ])
      .execute();

    // ── Articles ──
    const articles: Record<string, unknown>[] = [
      {
        nummer: demo.article.nummer,
        ean: demo.article.ean,
        herstellernummer: 'SCH-KS-100',
        name: demo.article.name,
        kurzbezeichnung: 'Kuli blau',
      },
      {
        nummer: demo.flaggedArticle.nummer,
        ean: ean13('400638100002'),
        herstellernummer: 'BIO-JOG-250',
        name: 'Bio-Joghurt Natur 250 g',
        kurzbezeichnung: 'Joghurt',
        charge_required: true,
        mhd_required: true,
      },
      {
        nummer: demo.article3.nummer,
        ean: demo.article3.ean,
        herstellernummer: 'TM-GELB-4',
        name: 'Textmarker gelb 4er',
        kurzbezeichnung: 'Textm. gelb',
      },
      {
        nummer: '100004',
        ean: ean13('400638100004'),
        herstellernummer: demo.ambiguousHerstellernummer,
        name: 'Heftgerät klein',
        kurzbezeichnung: 'Hefter kl.',
      },
      {
        nummer: '100005',
        ean: ean13('400638100005'),
        herstellernummer: demo.ambiguousHerstellernummer,
        name: 'Heftgerät groß',
        kurzbezeichnung: 'Hefter gr.',
      },
      ...demo.picking.map((a) => ({
        nummer: a.nummer,
        ean: ean13(`400638${a.nummer}`),
        herstellernummer: `KOM-${a.nummer}`,
        name: a.name,
        kurzbezeichnung: a.name.slice(0, 16),
      })),
    ];
    for (let n = 100100; n < 100400; n++) {
      const [noun, unit] = rnd.pick(NOUNS);
      const variant = rnd.pick(VARIANTS);
      const food = FOOD.has(noun);
      articles.push({
        nummer: String(n),
        ean: ean13(`4${String(rnd.int(10000, 99999))}${String(n).slice(-6)}`),
        herstellernummer: `HN-${rnd.int(10000, 99999)}-${n}`,
        name: `${noun} ${variant} (${unit})`,
        kurzbezeichnung: `${noun.slice(0, 10)} ${variant.slice(0, 4)}`,
        charge_required: food,
        mhd_required: food,
      });
    }
    await insertChunked(trx, 'articles', articles);

    // ── Locations ──
    const locations: Record<string, unknown>[] = [];
    for (const aisle of ['A', 'B', 'C']) {
      for (let rack = 1; rack <= 5; rack++) {
        for (let level = 1; level <= 4; level++) {
          for (let place = 1; place <= 4; place++) {
            const code = `${aisle}-${pad(rack)}-${pad(level)}-${pad(place)}`;
            locations.push({ code, name: code, lagertyp: LAGERTYPEN[(level - 1) % 3] });
          }
        }
      }
    }
    for (let n = 1; n <= 20; n++) {
      const code = `LHM${String(n).padStart(6, '0')}`;
      locations.push({ code, name: `Ladungsträger ${n}`, lagertyp: 'LHM', is_lhm: true });
    }
    const sscc = demo.locations.palletSscc;
    locations.push({ code: sscc, name: `Palette ${sscc}`, lagertyp: 'LHM', is_lhm: true });
    await insertChunked(trx, 'locations', locations);

    const articleIds = new Map(
      (await trx.selectFrom('articles').select(['id', 'nummer']).execute()).map((a) => [a.nummer, a.id]),
    );
    const locationIds = new Map(
      (await trx.selectFrom('locations').select(['id', 'code']).execute()).map((l) => [l.code, l.id]),
    );
    const idOf = <K>(map: Map<K, number>, key: K): number => {
      const value = map.get(key);
      if (value === undefined) throw new Error(`seed: unknown ${String(key)}`);
      return value;
    };

    // ── Stock (journalled) ──
    const stock = new Map<string, { location_id: number; article_id: number; amount: number }>();
    const put = (code: string, nummer: string, amount: number) => {
      const location_id = idOf(locationIds, code);
      const article_id = idOf(articleIds, nummer);
      stock.set(`${location_id}:${article_id}`, { location_id, article_id, amount });
    };
    put(demo.locations.main, demo.article.nummer, 50);
    put(demo.locations.second, demo.article.nummer, 10);
    put(demo.locations.main, demo.article3.nummer, 40);
    put('A-02-01-01', '100004', 12);
    put('A-02-01-02', '100005', 7);
    const fixedArticles = new Set<string>([
      demo.article.nummer,
      demo.flaggedArticle.nummer,
      demo.article3.nummer,
      ...demo.picking.map((a) => a.nummer),
    ]);
    const shelfCodes = [...locationIds.keys()].filter(
      (code) => !code.startsWith('LHM') && code !== demo.locations.empty && !code.startsWith('A-01-01-'),
    );
    for (const nummer of articleIds.keys()) {
      if (fixedArticles.has(nummer)) continue;
      const places = rnd.int(0, 3);
      for (let i = 0; i < places; i++) put(rnd.pick(shelfCodes), nummer, rnd.int(1, 120));
    }
    // After the random part, on no pick place (level 03): the random sequence stays the same.
    for (const a of demo.picking) put(a.location, a.nummer, a.stock);
    const stockRows = [...stock.values()];
    await insertChunked(trx, 'stock', stockRows);
    await insertChunked(
      trx,
      'movements',
      stockRows.map((s) => ({
        kind: 'seed',
        article_id: s.article_id,
        to_location_id: s.location_id,
        amount: s.amount,
      })),
    );

    // ── Replenishment minimums: some pick places run low ──
    const minimums = [
      {
        location_id: idOf(locationIds, demo.locations.second),
        article_id: idOf(articleIds, demo.article.nummer),
        minimum: 20,
      },
    ];
    const codeOf = new Map([...locationIds].map(([code, id]) => [id, code]));
    for (const row of stockRows) {
      const pickPlace = /^[A-C]-\d\d-03-/.test(codeOf.get(row.location_id) ?? '');
      if (!pickPlace || !rnd.chance(0.5)) continue;
      minimums.push({
        location_id: row.location_id,
        article_id: row.article_id,
        minimum: Math.max(1, row.amount + rnd.int(-40, 30)),
      });
    }
    await insertChunked(trx, 'replenishment_minimums', minimums);

    // ── Batches, projects, cartons ──
    const batchIds = [demo.batch, ...Array.from({ length: 24 }, (_, i) => String(200001 + i))];
    await insertChunked(
      trx,
      'batches',
      batchIds.map((id) => ({ id })),
    );
    await trx
      .insertInto('projects')
      .values([{ name: 'Onlineshop' }, { name: 'Großhandel' }, { name: 'Ohne Kartonagen' }])
      .execute();
    const projects = await trx.selectFrom('projects').select(['id', 'name']).orderBy('id').execute();
    const [shop, wholesale, noCartons] = projects;
    if (!shop || !wholesale || !noCartons) throw new Error('seed: projects missing');
    await trx
      .insertInto('cartons')
      .values([
        { project_id: shop.id, name: 'Karton S', height: 100, width: 200, depth: 150, image: 'karton-s' },
        { project_id: shop.id, name: 'Karton M', height: 200, width: 300, depth: 200, image: 'karton-m' },
        { project_id: shop.id, name: 'Karton L', height: 300, width: 400, depth: 300, image: 'karton-l' },
        { project_id: shop.id, name: 'Versandtasche', height: 20, width: 250, depth: 350, image: 'tasche' },
        {
          project_id: wholesale.id,
          name: 'Karton XL',
          height: 400,
          width: 600,
          depth: 400,
          image: 'karton-xl',
        },
        {
          project_id: wholesale.id,
          name: 'Palette halb',
          height: 1000,
          width: 800,
          depth: 600,
          image: 'palette',
        },
      ])
      .execute();

    // ── Delivery notes with lines and shipments ──
    type Note = {
      belegnr: string;
      eu: boolean;
      versandart: string;
      gravur: boolean;
      batch: string | null;
      project: number;
      lines: [string, number][];
      tracking: string;
      carrier: string | null;
    };
    const notes: Note[] = [
      {
        belegnr: demo.deliveryNotes.eu,
        eu: true,
        versandart: 'DHL037',
        gravur: false,
        batch: demo.batch,
        project: shop.id,
        lines: [
          [demo.article.nummer, 2],
          [demo.article3.nummer, 8],
        ],
        tracking: demo.tracking,
        carrier: 'dhl',
      },
      {
        belegnr: demo.deliveryNotes.nonEu,
        eu: false,
        versandart: 'DHL042',
        gravur: true,
        batch: demo.batch,
        project: shop.id,
        lines: [[demo.article.nummer, 1]],
        tracking: '00340434161094042564',
        carrier: null, // derived from the tracking number
      },
    ];
    const generatedNummern = [...articleIds.keys()].filter((n) => !fixedArticles.has(n));
    for (let n = 100003; n <= 100060; n++) {
      const eu = rnd.chance(0.8);
      const carrier = rnd.pick(CARRIERS);
      const lineCount = rnd.int(1, 5);
      const chosen = new Set<string>();
      while (chosen.size < lineCount) chosen.add(rnd.pick(generatedNummern));
      notes.push({
        belegnr: `LS${n}`,
        eu,
        versandart: rnd.pick(eu ? EU_VERSANDARTEN : NON_EU_VERSANDARTEN),
        gravur: rnd.chance(0.1),
        batch: rnd.pick(batchIds),
        project: rnd.chance(0.9) ? (rnd.chance(0.7) ? shop.id : wholesale.id) : noCartons.id,
        lines: [...chosen].map((nummer) => [nummer, rnd.chance(0.3) ? rnd.int(6, 24) : rnd.int(1, 5)]),
        tracking: trackingFor(carrier, n),
        carrier,
      });
    }
    // The pickable note replaces the generated one of its number (whose random draws are kept as they were).
    const pickable = notes.find((n) => n.belegnr === demo.deliveryNotes.pickable);
    if (!pickable) throw new Error('seed: the pickable note is missing');
    Object.assign(pickable, {
      eu: true,
      versandart: 'DHL037',
      gravur: false,
      project: shop.id,
      lines: demo.picking.map((a): [string, number] => [a.nummer, a.menge]),
    });
    notes.push(
      {
        belegnr: demo.deliveryNotes.noCartons,
        eu: true,
        versandart: 'GLS01',
        gravur: false,
        batch: demo.batch,
        project: noCartons.id,
        lines: [[demo.article3.nummer, 3]],
        tracking: '91000100098',
        carrier: 'gls',
      },
      {
        belegnr: demo.deliveryNotes.empty,
        eu: true,
        versandart: 'DHL037',
        gravur: false,
        batch: null, // no batch either: 'Batch konnte nicht ermittelt werden.'
        project: shop.id,
        lines: [],
        tracking: '00340434161094100099',
        carrier: 'dhl',
      },
    );
    await insertChunked(
      trx,
      'delivery_notes',
      notes.map((n) => ({
        belegnr: n.belegnr,
        eu: n.eu,
        versandart: n.versandart,
        gravur: n.gravur,
        batch_id: n.batch,
        project_id: n.project,
      })),
    );
    const noteIds = new Map(
      (await trx.selectFrom('delivery_notes').select(['id', 'belegnr']).execute()).map((n) => [
        n.belegnr,
        n.id,
      ]),
    );
    await insertChunked(
      trx,
      'delivery_note_lines',
      notes.flatMap((n) =>
        n.lines.map(([nummer, lsmenge]) => ({
          delivery_note_id: idOf(noteIds, n.belegnr),
          article_id: idOf(articleIds, nummer),
          lsmenge,
        })),
      ),
    );
    await insertChunked(
      trx,
      'shipments',
      notes.map((n) => ({
        tracking: n.tracking,
        carrier: n.carrier,
        delivery_note_id: idOf(noteIds, n.belegnr),
      })),
    );

    // ── A receipt announced by the ERP (Wareneingang) ──
    const receipt = await trx
      .insertInto('receipts')
      .values({ nummer: demo.receipt.nummer, lieferant: demo.receipt.lieferant })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('receipt_lines')
      .values([
        { receipt_id: receipt.id, article_id: idOf(articleIds, demo.article.nummer), expected: 20 },
        {
          receipt_id: receipt.id,
          article_id: idOf(articleIds, demo.flaggedArticle.nummer),
          charge: demo.receipt.charge,
          mhd: demo.receipt.mhd,
          expected: 5,
        },
      ])
      .execute();

    // ── Customs carts ──
    await trx
      .insertInto('carts')
      .values([1, 2, 3, 4, 5].map((n) => ({ wagennummer: `ZW0${n}`, bezeichnung: `Zollwagen ${n}` })))
      .execute();

    return { articles: articles.length, locations: locations.length };
  });
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function trackingFor(carrier: string, n: number): string {
  switch (carrier) {
    case 'dhl':
      return `00340434161094${String(n).padStart(6, '0')}`;
    case 'gls':
      return `9${String(n).padStart(10, '0')}`;
    case 'dpd':
      return `0${String(n * 7).padStart(13, '0')}`;
    default:
      return `1Z999AA1${String(n).padStart(10, '0')}`;
  }
}
