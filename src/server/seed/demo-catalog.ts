import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { insertChunked } from './bulk.ts';
import { demo } from './demo-records.ts';
import { ean13, type Random } from './random.ts';

/**
 * The demo warehouse's articles and locations: the fixed ones of DESIGN §7 and a generated, realistic rest
 * (the same on every machine: drawn from the seed's one random sequence, in the same order).
 */
type Db = Kysely<Database>;

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

/** The fixed articles, then 300 generated ones (100100 … 100399), four random draws each. */
export async function seedArticles(db: Db, rnd: Random): Promise<number> {
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
    {
      nummer: demo.inventory.difference.article.nummer,
      ean: ean13(`400638${demo.inventory.difference.article.nummer}`),
      herstellernummer: 'LO-SW-2',
      name: demo.inventory.difference.article.name,
      kurzbezeichnung: 'Locher sw',
    },
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
  await insertChunked(db, 'articles', articles);
  return articles.length;
}

/** Shelves A–C (rack, level, place), 20 load carriers (LHM) and the pallet known by its SSCC. */
export async function seedLocations(db: Db): Promise<number> {
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
  await insertChunked(db, 'locations', locations);
  return locations.length;
}

/**
 * The ids the articles (by nummer) and the locations (by code) were given, in the order the database reads
 * them: the generated stock and notes draw from these lists, so their order is part of the demo data.
 */
export interface CatalogIds {
  articleIds: Map<string, number>;
  locationIds: Map<string, number>;
}

export async function catalogIds(db: Db): Promise<CatalogIds> {
  const articleIds = new Map(
    (await db.selectFrom('articles').select(['id', 'nummer']).execute()).map((a) => [a.nummer, a.id]),
  );
  const locationIds = new Map(
    (await db.selectFrom('locations').select(['id', 'code']).execute()).map((l) => [l.code, l.id]),
  );
  return { articleIds, locationIds };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
