import { type Insertable, type Kysely, sql } from 'kysely';
import { hashCardSecret, hashPassword } from '../auth/secrets.ts';
import type { Database, UsersTable } from '../db/schema.ts';
import { bookOpeningStock } from '../domain/stock.ts';
import { idOf, insertChunked } from './bulk.ts';
import { type CatalogIds, catalogIds, seedArticles, seedLocations } from './demo-catalog.ts';
import { seedInventory } from './demo-inventory.ts';
import { demo, fixedArticleNummern } from './demo-records.ts';
import { seedBatches, seedDeliveryNotes, seedProjects } from './demo-shipping.ts';
import { type Random, seededRandom } from './random.ts';

export { demo } from './demo-records.ts';

/**
 * The demo warehouse (DESIGN §7): fixed records the demo tour (docs/using.md) and the acceptance tests rely
 * on (demo-records.ts), plus a generated, realistic rest (same on every machine). Stock is journalled like
 * any booking ('seed'), so the journal and the stock table agree from the first minute.
 *
 * Built in parts, one per kind of record, in one transaction. The generated records come from one random
 * sequence that the parts draw from in turn (articles, stock, minimums, delivery notes), and the ids from the
 * tables' sequences: the parts' order is part of the demo data.
 */
type Db = Kysely<Database>;

export async function seedDemo(db: Db): Promise<{ articles: number; locations: number }> {
  const rnd = seededRandom(20261123);
  const users = await demoUsers();
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(users).execute();
    const articles = await seedArticles(trx, rnd);
    const locations = await seedLocations(trx);
    const ids = await catalogIds(trx);
    const stock = await seedStock(trx, rnd, ids);
    await seedMinimums(trx, rnd, ids, stock);
    const batchIds = await seedBatches(trx);
    const projects = await seedProjects(trx);
    await seedDeliveryNotes(trx, rnd, ids, batchIds, projects);
    await seedReceipt(trx, ids);
    await seedCarts(trx);
    await seedCartPicking(trx);
    await seedInventory(trx);
    return { articles, locations };
  });
}

/** The password user, the card user, the shift lead and the admin; hashed before the transaction (scrypt). */
async function demoUsers(): Promise<Insertable<UsersTable>[]> {
  const passwordHash = await hashPassword(demo.passwordUser.password);
  const leadHash = await hashPassword(demo.leadUser.password);
  const adminHash = await hashPassword(demo.adminUser.password);
  return [
    { name: demo.passwordUser.name, username: demo.passwordUser.username, password_hash: passwordHash },
    { name: demo.cardUser.name, card_secret_hash: hashCardSecret(demo.cardUser.card) },
    ...[
      { ...demo.leadUser, hash: leadHash },
      { ...demo.adminUser, hash: adminHash },
    ].map((u) => ({ name: u.name, username: u.username, password_hash: u.hash, role: u.role })),
  ];
}

type OpeningStock = { location_id: number; article_id: number; amount: number };

/**
 * The fixed articles' stock (DESIGN §7), up to three random shelves for each generated article, then the
 * pickable note's articles on their places; booked with its journal (domain/stock.ts). A later `put` on the
 * same location and article replaces an earlier one.
 */
async function seedStock(
  db: Db,
  rnd: Random,
  { articleIds, locationIds }: CatalogIds,
): Promise<OpeningStock[]> {
  const stock = new Map<string, OpeningStock>();
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
  const shelfCodes = [...locationIds.keys()].filter(
    (code) => !code.startsWith('LHM') && code !== demo.locations.empty && !code.startsWith('A-01-01-'),
  );
  for (const nummer of articleIds.keys()) {
    if (fixedArticleNummern.has(nummer)) continue;
    const places = rnd.int(0, 3);
    for (let i = 0; i < places; i++) put(rnd.pick(shelfCodes), nummer, rnd.int(1, 120));
  }
  // After the random part, on no pick place (level 03): the random sequence stays the same.
  for (const a of demo.picking) put(a.location, a.nummer, a.stock);
  const { difference } = demo.inventory;
  put(difference.location, difference.article.nummer, difference.book);
  const stockRows = [...stock.values()];
  await bookOpeningStock(db, stockRows);
  return stockRows;
}

/** Replenishment minimums: the fixed one on A-01-01-02, and some pick places (level 03) that run low. */
async function seedMinimums(
  db: Db,
  rnd: Random,
  { articleIds, locationIds }: CatalogIds,
  stockRows: OpeningStock[],
): Promise<void> {
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
  await insertChunked(db, 'replenishment_minimums', minimums);
}

/** A receipt announced by the ERP (Wareneingang): 100001 × 20, and 100002 × 5 with Charge and MHD. */
async function seedReceipt(db: Db, { articleIds }: CatalogIds): Promise<void> {
  const receipt = await db
    .insertInto('receipts')
    .values({ nummer: demo.receipt.nummer, lieferant: demo.receipt.lieferant })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
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
}

/** The customs carts ZW01 … ZW05 (closed, as the table's default has it). */
async function seedCarts(db: Db): Promise<void> {
  await db
    .insertInto('carts')
    .values([1, 2, 3, 4, 5].map((n) => ({ wagennummer: `ZW0${n}`, bezeichnung: `Zollwagen ${n}` })))
    .execute();
}

/**
 * A pick cart `code` with compartments 1 … `compartments`, coded `<code>-<n>` as its labels print them: the
 * demo's, and the tests' and the bench's own carts (the `pick-carts` import writes many at once in its own way).
 */
export async function addPickCart(db: Db, code: string, compartments: number): Promise<number> {
  const cart = await db.insertInto('pick_carts').values({ code }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('pick_cart_compartments')
    .values(
      Array.from({ length: compartments }, (_, i) => ({
        cart_id: cart.id,
        number: i + 1,
        code: `${code}-${i + 1}`,
      })),
    )
    .execute();
  return cart.id;
}

/** Rollende Kommissionierung (issue 41): the pick cart KW01 with its compartments, the shift lead's profile. */
async function seedCartPicking(db: Db): Promise<void> {
  await addPickCart(db, demo.pickCart.code, demo.pickCart.compartments);
  const lead = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', demo.leadUser.username)
    .executeTakeFirstOrThrow();
  const profile = demo.pickProfile;
  await db
    .insertInto('pick_profiles')
    .values({
      name: profile.name,
      versandart: profile.versandart,
      max_lines: profile.maxLines,
      notes_per_cart: profile.notesPerCart,
      changed_by: lead.id,
    })
    .execute();
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
