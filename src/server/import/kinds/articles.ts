import { sql } from 'kysely';
import { type ImportKind, refuseDuplicates, summary, upsertSet, writeInChunks } from '../framework.ts';
import { because } from '../messages.ts';
import { ARTICLE_NUMBER_ALIASES } from '../rows.ts';
import { isValidGtin } from '../values.ts';

interface ArticleRow {
  nummer: string;
  name: string;
  kurzbezeichnung: string;
  ean: string | null;
  herstellernummer: string | null;
  chargeRequired: boolean;
  mhdRequired: boolean;
}

/** Articles by Artikelnummer. Columns the file lacks keep their stored values. */
export const articles: ImportKind<ArticleRow> = {
  name: 'articles',
  columns: [
    {
      key: 'nummer',
      header: 'Artikelnummer',
      aliases: [...ARTICLE_NUMBER_ALIASES, 'Nummer'],
      required: true,
    },
    {
      key: 'name',
      header: 'Bezeichnung',
      aliases: ['Artikelbezeichnung', 'Artikelname', 'Name', 'Bezeichnung 1'],
      required: true,
    },
    { key: 'kurzbezeichnung', header: 'Kurzbezeichnung', aliases: ['Kurztext', 'Kurzname'] },
    { key: 'ean', header: 'EAN', aliases: ['GTIN', 'EAN-Code', 'EAN13', 'Barcode'] },
    {
      key: 'herstellernummer',
      header: 'Herstellernummer',
      aliases: ['Herstellerartikelnummer', 'Hersteller-Nr.', 'Herstellernr', 'MPN'],
    },
    { key: 'chargeRequired', header: 'Chargenpflicht', aliases: ['chargenpflichtig', 'Charge'] },
    { key: 'mhdRequired', header: 'MHD-Pflicht', aliases: ['MHD-pflichtig', 'MHD'] },
  ],
  read(r) {
    const nummer = r.text('nummer', { required: true, max: 100 });
    const name = r.text('name', { required: true, max: 200, fold: true });
    const kurzbezeichnung = r.text('kurzbezeichnung', { max: 100, fold: true });
    const ean = r.text('ean', { max: 14 });
    if (ean && !isValidGtin(ean)) r.refuse('ean', because('notAnEan', { value: ean }));
    const herstellernummer = r.text('herstellernummer', { max: 100 });
    const chargeRequired = r.boolean('chargeRequired', false);
    const mhdRequired = r.boolean('mhdRequired', false);
    if (
      !nummer ||
      !name ||
      kurzbezeichnung === undefined ||
      ean === undefined ||
      herstellernummer === undefined
    )
      return undefined;
    if (chargeRequired === undefined || mhdRequired === undefined) return undefined;
    return {
      nummer,
      name,
      kurzbezeichnung: kurzbezeichnung ?? '',
      ean,
      herstellernummer,
      chargeRequired,
      mhdRequired,
    };
  },
  unit: (a) => a.nummer,
  inFile(ctx, rows) {
    refuseDuplicates(ctx, rows, (a) => a.nummer, 'nummer', 'Artikelnummer');
  },
  async check() {},
  async write(ctx, rows) {
    const columns = {
      nummer: 'nummer',
      name: 'name',
      kurzbezeichnung: 'kurzbezeichnung',
      ean: 'ean',
      herstellernummer: 'herstellernummer',
      chargeRequired: 'charge_required',
      mhdRequired: 'mhd_required',
    };
    const set = upsertSet('articles', columns, ctx.present, ['nummer']);
    const counts = await writeInChunks(rows, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
        insert into articles (nummer, name, kurzbezeichnung, ean, herstellernummer, charge_required, mhd_required)
        select * from unnest(
          ${part.map((a) => a.nummer)}::text[], ${part.map((a) => a.name)}::text[],
          ${part.map((a) => a.kurzbezeichnung)}::text[], ${part.map((a) => a.ean)}::text[],
          ${part.map((a) => a.herstellernummer)}::text[], ${part.map((a) => a.chargeRequired)}::boolean[],
          ${part.map((a) => a.mhdRequired)}::boolean[])
        on conflict (nummer) do update set ${set}
        returning (xmax = 0) as inserted`.execute(ctx.trx);
      return written;
    });
    return [summary('articles', counts)];
  },
};
