import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ean13 } from '../../src/server/seed/random.ts';
import { databaseKinds, freshDatabase, type TestDatabase } from '../support/db.ts';

/** The fixed demo records of DESIGN §7 that the demo tour (docs/using.md) and the end-to-end tests rely on. */
describe.each(databaseKinds())('the demo warehouse on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(() => database.close());

  const stockOf = async (code: string, nummer: string) => {
    const { rows } = await sql<{ amount: number }>`
      select coalesce(sum(s.amount), 0)::int as amount from stock s
      join locations l on l.id = s.location_id join articles a on a.id = s.article_id
      where l.code = ${code} and a.nummer = ${nummer}`.execute(database.db);
    return rows[0]?.amount;
  };

  it('has the password user and the card user', async () => {
    const users = await database.db
      .selectFrom('users')
      .select(['name', 'username', 'card_secret_hash'])
      .execute();
    expect(users).toContainEqual(expect.objectContaining({ name: 'Demo Nutzer', username: 'demo' }));
    expect(users.find((u) => u.name === 'Karten Nutzer')?.card_secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has the fixed articles with their stock', async () => {
    const article = await database.db
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '100001')
      .executeTakeFirstOrThrow();
    expect(article).toMatchObject({ ean: '4006381333931', name: 'Kugelschreiber blau' });
    expect(await stockOf('A-01-01-01', '100001')).toBe(50);
    expect(await stockOf('A-01-01-02', '100001')).toBe(10);
    expect(await stockOf('A-01-01-01', '100003')).toBe(40);
    const flagged = await database.db
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '100002')
      .executeTakeFirstOrThrow();
    expect(flagged).toMatchObject({ charge_required: true, mhd_required: true });
    const third = await database.db
      .selectFrom('articles')
      .selectAll()
      .where('nummer', '=', '100003')
      .executeTakeFirstOrThrow();
    expect(third.ean).toBe('4012345678901');
    const dup = await database.db
      .selectFrom('articles')
      .select('id')
      .where('herstellernummer', '=', 'HN-DUP')
      .execute();
    expect(dup).toHaveLength(2);
  });

  it('has hundreds of articles, all with valid EAN-13 and unique numbers', async () => {
    const articles = await database.db.selectFrom('articles').select(['ean']).execute();
    expect(articles.length).toBeGreaterThanOrEqual(300);
    for (const { ean } of articles) expect(ean && ean13(ean.slice(0, 12))).toBe(ean);
  });

  it('has the empty location and the load carrier', async () => {
    const empty = await sql<{ n: number }>`
      select count(*)::int as n from stock s join locations l on l.id = s.location_id where l.code = 'B-02-01-01'`.execute(
      database.db,
    );
    expect(empty.rows[0]?.n).toBe(0);
    const lhm = await database.db
      .selectFrom('locations')
      .selectAll()
      .where('code', '=', 'LHM000001')
      .executeTakeFirstOrThrow();
    expect(lhm.is_lhm).toBe(true);
  });

  it('has the two fixed delivery notes with lines, batch, cartons and shipment', async () => {
    const ls1 = await database.db
      .selectFrom('delivery_notes')
      .selectAll()
      .where('belegnr', '=', 'LS100001')
      .executeTakeFirstOrThrow();
    expect(ls1).toMatchObject({ eu: true, versandart: 'DHL037', batch_id: '123456', gravur: false });
    const lines = await sql<{ nummer: string; lsmenge: number }>`
      select a.nummer, l.lsmenge from delivery_note_lines l join articles a on a.id = l.article_id
      where l.delivery_note_id = ${ls1.id} order by a.nummer`.execute(database.db);
    expect(lines.rows).toEqual([
      { nummer: '100001', lsmenge: 2 },
      { nummer: '100003', lsmenge: 8 },
    ]);
    const cartons = await database.db
      .selectFrom('cartons')
      .select('id')
      .where('project_id', '=', ls1.project_id ?? -1)
      .execute();
    expect(cartons.length).toBeGreaterThanOrEqual(3);
    const shipment = await database.db
      .selectFrom('shipments')
      .selectAll()
      .where('tracking', '=', '00340434161094042557')
      .executeTakeFirstOrThrow();
    expect(shipment).toMatchObject({ delivery_note_id: ls1.id, carrier: 'dhl' });

    const ls2 = await database.db
      .selectFrom('delivery_notes')
      .selectAll()
      .where('belegnr', '=', 'LS100002')
      .executeTakeFirstOrThrow();
    expect(ls2).toMatchObject({ eu: false, versandart: 'DHL042', gravur: true });
  });

  it('has the customs carts ZW01 … ZW05, all closed', async () => {
    const carts = await database.db
      .selectFrom('carts')
      .select(['wagennummer', 'bezeichnung', 'status'])
      .orderBy('wagennummer')
      .execute();
    expect(carts).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({
        wagennummer: `ZW0${n}`,
        bezeichnung: `Zollwagen ${n}`,
        status: 'abgeschlossen',
      })),
    );
  });

  it('has the pick cart KW01 with compartments KW01-1 … KW01-6 and the profile Einzelteile DHL (issue 41)', async () => {
    const compartments = await database.db
      .selectFrom('pick_cart_compartments as f')
      .innerJoin('pick_carts as c', 'c.id', 'f.cart_id')
      .select(['c.code as cart', 'f.number', 'f.code'])
      .orderBy('f.number')
      .execute();
    expect(compartments).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ({ cart: 'KW01', number: n, code: `KW01-${n}` })),
    );
    const profiles = await database.db
      .selectFrom('pick_profiles as p')
      .innerJoin('users as u', 'u.id', 'p.changed_by')
      .select([
        'p.name',
        'p.versandart',
        'p.max_lines',
        'p.eu',
        'p.arrived_before',
        'p.notes_per_cart',
        'u.username',
      ])
      .execute();
    expect(profiles).toEqual([
      {
        name: 'Einzelteile DHL',
        versandart: 'DHL',
        max_lines: 1,
        eu: null,
        arrived_before: null,
        notes_per_cart: 6,
        username: 'leitung',
      },
    ]);
  });

  it('has the cart notes LS100010 … LS100017, newer than every other note, their lines sharing locations', async () => {
    const notes = await sql<{ belegnr: string; versandart: string; lines: number; newest: boolean }>`
      select n.belegnr, n.versandart, (select count(*)::int from delivery_note_lines l where l.delivery_note_id = n.id) as lines,
        n.id > (select max(o.id) from delivery_notes o where o.belegnr not between 'LS100010' and 'LS100017') as newest
      from delivery_notes n where n.belegnr between 'LS100010' and 'LS100017' order by n.belegnr`.execute(
      database.db,
    );
    expect(notes.rows.map((n) => n.belegnr)).toEqual(
      [10, 11, 12, 13, 14, 15, 16, 17].map((n) => `LS1000${n}`),
    );
    expect(notes.rows.every((n) => n.newest)).toBe(true);
    // The profile's notes: LS100010 … LS100015 are single-line DHL notes.
    expect(notes.rows.slice(0, 6).every((n) => n.lines === 1 && n.versandart.startsWith('DHL'))).toBe(true);
    // Their articles lie on one location each, three in all: a cart of the six visits three locations.
    const { rows } = await sql<{ locations: number; lines: number }>`
      select count(distinct s.location_id)::int as locations, count(distinct l.id)::int as lines
      from delivery_note_lines l join delivery_notes n on n.id = l.delivery_note_id
      join stock s on s.article_id = l.article_id and s.amount > 0
      where n.belegnr between 'LS100010' and 'LS100015'`.execute(database.db);
    expect(rows[0]).toEqual({ locations: 3, lines: 6 });
    // The generated notes moved above them: LS100004 … LS100009 and LS100020 … LS100070.
    const generated = await sql<{ n: number }>`
      select count(*)::int as n from delivery_notes
      where belegnr between 'LS100004' and 'LS100009' or belegnr between 'LS100020' and 'LS100070'`.execute(
      database.db,
    );
    expect(generated.rows[0]?.n).toBe(57);
  });

  it('journals all seeded stock, so journal and stock agree from the start', async () => {
    const { rows } = await sql<{ stock: number; journal: number }>`
      select (select sum(amount) from stock)::int as stock, (select sum(amount) from movements where kind = 'seed')::int as journal`.execute(
      database.db,
    );
    expect(rows[0]?.stock).toBe(rows[0]?.journal);
  });
});
