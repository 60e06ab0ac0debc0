import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { idOf, insertChunked } from './bulk.ts';
import type { CatalogIds } from './demo-catalog.ts';
import { demo, fixedArticleNummern } from './demo-records.ts';
import type { Random } from './random.ts';

/**
 * What the demo warehouse ships: batches, projects with their cartons, and delivery notes with their lines
 * and shipments — the fixed ones of DESIGN §7 and generated ones drawn from the seed's random sequence.
 */
type Db = Kysely<Database>;

const CARRIERS = ['dhl', 'gls', 'dpd', 'ups'] as const;
const EU_VERSANDARTEN = ['DHL037', 'DHL001', 'GLS01', 'DPD01'];
const NON_EU_VERSANDARTEN = ['DHL042', 'DHL053', 'UPS65'];

/** A delivery note as the seed builds it: its lines are [article nummer, lsmenge]. */
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

/** The fixed batch and 24 more (200001 …); answers their ids, which the generated notes draw from. */
export async function seedBatches(db: Db): Promise<string[]> {
  const batchIds = [demo.batch, ...Array.from({ length: 24 }, (_, i) => String(200001 + i))];
  await insertChunked(
    db,
    'batches',
    batchIds.map((id) => ({ id })),
  );
  return batchIds;
}

export interface DemoProjects {
  shop: { id: number };
  wholesale: { id: number };
  noCartons: { id: number };
}

/** Three projects — 'Onlineshop' and 'Großhandel' with their cartons, one without any — in this order. */
export async function seedProjects(db: Db): Promise<DemoProjects> {
  await db
    .insertInto('projects')
    .values([{ name: 'Onlineshop' }, { name: 'Großhandel' }, { name: 'Ohne Kartonagen' }])
    .execute();
  const projects = await db.selectFrom('projects').select(['id', 'name']).orderBy('id').execute();
  const [shop, wholesale, noCartons] = projects;
  if (!shop || !wholesale || !noCartons) throw new Error('seed: projects missing');
  await db
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
  return { shop, wholesale, noCartons };
}

/**
 * The fixed delivery notes (LS100001, LS100002, the pickable LS100003, LS100098 without cartons, the empty
 * LS100099, the cart notes LS100010 … LS100017) and generated ones (LS100004 … LS100009 and LS100020 …
 * LS100070), each with its lines and one shipment.
 */
export async function seedDeliveryNotes(
  db: Db,
  rnd: Random,
  { articleIds }: CatalogIds,
  batchIds: string[],
  { shop, wholesale, noCartons }: DemoProjects,
): Promise<void> {
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
  const generatedNummern = [...articleIds.keys()].filter((n) => !fixedArticleNummern.has(n));
  // The generated notes' random draws (and tracking numbers) follow n as they always did; from LS100010 on
  // their numbers move up by ten, above the fixed cart notes (issue 41).
  for (let n = 100003; n <= 100060; n++) {
    const eu = rnd.chance(0.8);
    const carrier = rnd.pick(CARRIERS);
    const lineCount = rnd.int(1, 5);
    const chosen = new Set<string>();
    while (chosen.size < lineCount) chosen.add(rnd.pick(generatedNummern));
    notes.push({
      belegnr: `LS${generatedNumber(n)}`,
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
    // Last, so the single-note flow's oldest notes stay the ones before them.
    ...demo.cartNotes.map((n): Note => {
      const carrier = n.versandart.startsWith('DHL') ? 'dhl' : n.versandart.startsWith('GLS') ? 'gls' : 'dpd';
      return {
        belegnr: n.belegnr,
        eu: n.eu,
        versandart: n.versandart,
        gravur: false,
        batch: demo.batch,
        project: shop.id,
        lines: n.lines.map(([nummer, menge]): [string, number] => [nummer, menge]),
        // 2000xx: apart from the generated notes' numbers (1000xx), which keep theirs.
        tracking: trackingFor(carrier, Number(n.belegnr.slice(2)) + 100_000),
        carrier,
      };
    }),
  );
  await insertChunked(
    db,
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
    (await db.selectFrom('delivery_notes').select(['id', 'belegnr']).execute()).map((n) => [n.belegnr, n.id]),
  );
  await insertChunked(
    db,
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
    db,
    'shipments',
    notes.map((n) => ({
      tracking: n.tracking,
      carrier: n.carrier,
      delivery_note_id: idOf(noteIds, n.belegnr),
    })),
  );
}

/** A generated note's number: below LS100010 as drawn, from there ten up (the fixed cart notes' room). */
function generatedNumber(n: number): number {
  return n < 100010 ? n : n + 10;
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
