import { sql } from 'kysely';
import {
  chunks,
  type Db,
  type ImportKind,
  idsByKey,
  type Line,
  summary,
  upsertSet,
  writeInChunks,
} from '../framework.ts';
import { because, summaryLine } from '../messages.ts';
import { ARTICLE_NUMBER_ALIASES, NOTE_ALIASES } from '../rows.ts';

interface NoteRow {
  belegnr: string;
  /** null: empty cell (allowed only for a note that exists, which keeps its value). */
  eu: boolean | null;
  versandart: string;
  gravur: boolean;
  batch: string | null;
  projekt: string | null;
  /** The note's line (Position) this row holds; null: a note without lines. */
  position: { nummer: string; lsmenge: number } | null;
}

interface StoredLine {
  id: number;
  delivery_note_id: number;
  article_id: number;
  nummer: string;
  lsmenge: number;
  pemenge: number;
  /** Picked or reported missing (Kommissionierung): like a packed amount, it must stay. */
  picked: number;
}

const NOTE_FIELDS = ['eu', 'versandart', 'gravur', 'batch', 'projekt'] as const;

/**
 * Delivery notes with their lines, one row per line; the note's own columns repeat on each of its rows (a
 * note without lines: one row with an empty Artikelnummer). The file's lines are the note's lines: lines
 * are matched by article and keep what was packed; a line the file no longer has is removed. A note whose
 * rows are not all good is refused whole, so a note is never imported with lines missing.
 */
export const deliveryNotes: ImportKind<NoteRow> = {
  name: 'delivery-notes',
  columns: [
    {
      key: 'belegnr',
      header: 'Belegnr',
      aliases: NOTE_ALIASES,
      required: true,
    },
    { key: 'eu', header: 'EU', aliases: ['EU-Lieferung', 'innergemeinschaftlich'] },
    { key: 'versandart', header: 'Versandart', aliases: ['Versandartcode', 'Versandart-Code'] },
    { key: 'gravur', header: 'Gravur' },
    { key: 'batch', header: 'Batch', aliases: ['Batchnummer', 'Batchnr', 'Batch-Nr.'] },
    { key: 'projekt', header: 'Projekt', aliases: ['Projektname'] },
    { key: 'nummer', header: 'Artikelnummer', aliases: ARTICLE_NUMBER_ALIASES },
    { key: 'lsmenge', header: 'Menge', aliases: ['LS-Menge', 'Liefermenge', 'Anzahl'] },
  ],
  read(r) {
    const belegnr = r.text('belegnr', { required: true, max: 200 });
    const eu = r.raw('eu') === '' ? null : r.boolean('eu', false);
    const versandart = r.text('versandart', { max: 50 });
    const gravur = r.boolean('gravur', false);
    const batch = r.text('batch', { max: 6 });
    const projekt = r.text('projekt', { max: 200, fold: true });
    const nummer = r.text('nummer', { max: 100 });
    const lsmenge = r.whole('lsmenge', 1, 1_000_000);
    if (nummer && lsmenge === null) r.refuse('lsmenge', because('empty', {}));
    if (!nummer && lsmenge !== null && lsmenge !== undefined)
      r.refuse('nummer', because('mengeWithoutArticle', {}));
    if (!belegnr || eu === undefined || versandart === undefined || gravur === undefined) return undefined;
    if (batch === undefined || projekt === undefined || nummer === undefined || lsmenge === undefined)
      return undefined;
    return {
      belegnr,
      eu,
      versandart: versandart ?? '',
      gravur,
      batch,
      projekt,
      position: nummer && lsmenge !== null ? { nummer, lsmenge } : null,
    };
  },
  unit: (n) => n.belegnr,
  async check(ctx, rows) {
    const notes = groupByNote(rows);
    const articleIds = await idsByKey(
      ctx.trx,
      'articles',
      rows.flatMap((r) => (r.row.position ? [r.row.position.nummer] : [])),
    );
    const projectIds = await idsByKey(
      ctx.trx,
      'projects',
      rows.flatMap((r) => (r.row.projekt ? [r.row.projekt] : [])),
    );
    const batchIds = new Set<string>();
    for (const part of chunks([...new Set(rows.flatMap((r) => (r.row.batch ? [r.row.batch] : [])))], 5000)) {
      const found = await ctx.trx
        .selectFrom('batches')
        .select('id')
        .where('id', '=', sql<string>`any(${part}::text[])`)
        .execute();
      for (const b of found) batchIds.add(b.id);
    }
    const stored = await storedNotes(ctx.trx, [...notes.keys()]);

    for (const [belegnr, noteRows] of notes) {
      const [first] = noteRows;
      if (!first) continue;
      const note = stored.notes.get(belegnr);
      const lineOf = new Map<string, number>();
      for (const { line, row } of noteRows) {
        const differs = NOTE_FIELDS.find((key) => ctx.present.has(key) && first.row[key] !== row[key]);
        if (differs) ctx.refuse(line, differs, because('differsInNote', { line: first.line }));
        if (row.eu === null && !note) ctx.refuse(line, 'eu', because('euMissing', {}));
        if (row.batch && !batchIds.has(row.batch))
          ctx.refuse(line, 'batch', because('unknownBatch', { batch: row.batch }));
        if (row.projekt && !projectIds.has(row.projekt))
          ctx.refuse(line, 'projekt', because('unknownProject', { projekt: row.projekt }));
        if (!row.position) continue;
        if (!articleIds.has(row.position.nummer))
          ctx.refuse(line, 'nummer', because('unknownArticle', { nummer: row.position.nummer }));
        const earlier = lineOf.get(row.position.nummer);
        if (earlier !== undefined)
          ctx.refuse(line, 'nummer', because('articleTwiceInNote', { line: earlier }));
        else lineOf.set(row.position.nummer, line);
      }
      if (!note) continue;
      // What is packed already must stay: no line below its packed amount, none removed once packing began.
      const storedLines = stored.lines.get(note.id) ?? [];
      let changesLines = storedLines.length !== lineOf.size;
      for (const s of storedLines) {
        const line = lineOf.get(s.nummer);
        const position = noteRows.find((r) => r.line === line)?.row.position;
        if (line === undefined || !position) {
          changesLines = true;
          if (s.pemenge > 0) {
            ctx.refuse(
              first.line,
              'nummer',
              because('packedLineMissing', { nummer: s.nummer, packed: s.pemenge }),
            );
          } else if (s.picked > 0) {
            ctx.refuse(
              first.line,
              'nummer',
              because('pickedLineMissing', { nummer: s.nummer, picked: s.picked }),
            );
          }
          continue;
        }
        if (position.lsmenge !== s.lsmenge) changesLines = true;
        if (position.lsmenge < s.pemenge)
          ctx.refuse(
            line,
            'lsmenge',
            because('belowPacked', { amount: position.lsmenge, packed: s.pemenge }),
          );
        else if (position.lsmenge < s.picked)
          ctx.refuse(line, 'lsmenge', because('belowPicked', { amount: position.lsmenge, picked: s.picked }));
      }
      if (changesLines && note.status === 'gepackt') {
        ctx.refuse(first.line, 'belegnr', because('notePacked', { belegnr }));
      }
    }
    // A note is imported whole or not at all.
    for (const noteRows of notes.values()) {
      const bad = noteRows.find((r) => ctx.isRefused(r.line));
      if (!bad) continue;
      for (const { line } of noteRows) {
        if (!ctx.isRefused(line)) ctx.refuse(line, 'belegnr', because('noteLineRefused', { line: bad.line }));
      }
    }
  },
  async write(ctx, rows) {
    const notes = groupByNote(rows);
    const stored = await storedNotes(ctx.trx, [...notes.keys()]);
    const heads = [...notes.values()].flatMap((noteRows) => (noteRows[0] ? [noteRows[0]] : []));
    const projectIds = await idsByKey(
      ctx.trx,
      'projects',
      heads.flatMap((r) => (r.row.projekt ? [r.row.projekt] : [])),
    );
    const set = upsertSet(
      'delivery_notes',
      { eu: 'eu', versandart: 'versandart', gravur: 'gravur', batch: 'batch_id', projekt: 'project_id' },
      ctx.present,
      ['belegnr'],
    );
    const counts = await writeInChunks(heads, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
          insert into delivery_notes (belegnr, eu, versandart, gravur, batch_id, project_id)
          select * from unnest(
            ${part.map((n) => n.belegnr)}::text[],
            ${part.map((n) => n.eu ?? stored.notes.get(n.belegnr)?.eu ?? false)}::boolean[],
            ${part.map((n) => n.versandart)}::text[], ${part.map((n) => n.gravur)}::boolean[],
            ${part.map((n) => n.batch)}::text[],
            ${part.map((n) => (n.projekt ? (projectIds.get(n.projekt) ?? null) : null))}::int[])
          on conflict (belegnr) do update set ${set}
          returning (xmax = 0) as inserted`.execute(ctx.trx);
      return written;
    });

    // Lines: matched by article within the note.
    const noteIds = await idsByKey(ctx.trx, 'delivery_notes', notes.keys());
    const articleIds = await idsByKey(
      ctx.trx,
      'articles',
      rows.flatMap((r) => (r.row.position ? [r.row.position.nummer] : [])),
    );
    const existing = new Map<string, StoredLine>();
    for (const lines of stored.lines.values())
      for (const l of lines) existing.set(`${l.delivery_note_id}:${l.article_id}`, l);
    const inserts: { note: number; article: number; lsmenge: number }[] = [];
    const updates: { id: number; lsmenge: number }[] = [];
    const keep = new Set<number>();
    for (const { row } of rows) {
      if (!row.position) continue;
      const note = noteIds.get(row.belegnr) ?? -1;
      const article = articleIds.get(row.position.nummer) ?? -1;
      const old = existing.get(`${note}:${article}`);
      if (!old) inserts.push({ note, article, lsmenge: row.position.lsmenge });
      else {
        keep.add(old.id);
        if (old.lsmenge !== row.position.lsmenge) updates.push({ id: old.id, lsmenge: row.position.lsmenge });
      }
    }
    const removals = [...existing.values()].filter((l) => !keep.has(l.id)).map((l) => l.id);
    for (const part of chunks(inserts)) {
      await sql`
        insert into delivery_note_lines (delivery_note_id, article_id, lsmenge)
        select * from unnest(${part.map((l) => l.note)}::int[], ${part.map((l) => l.article)}::int[],
                             ${part.map((l) => l.lsmenge)}::int[])`.execute(ctx.trx);
    }
    for (const part of chunks(updates)) {
      await sql`
        update delivery_note_lines l set lsmenge = u.lsmenge
        from unnest(${part.map((l) => l.id)}::int[], ${part.map((l) => l.lsmenge)}::int[]) u(id, lsmenge)
        where l.id = u.id`.execute(ctx.trx);
    }
    for (const part of chunks(removals)) {
      // Only unpacked, unpicked lines go (checked above; again here, as packing or picking may have begun since
      // on PostgreSQL).
      const { rows: deleted } = await sql`
        delete from delivery_note_lines where id = any(${part}::int[])
          and pemenge = 0 and kommissioniert = 0 and fehlmenge = 0 returning id`.execute(ctx.trx);
      if (deleted.length !== part.length) {
        throw new Error(
          'a delivery note was being packed or picked while it was imported; run the import again',
        );
      }
    }
    return [
      summary('delivery notes', counts),
      summaryLine('noteLines', {
        inserted: inserts.length,
        updated: updates.length,
        removed: removals.length,
      }),
    ];
  },
};

function groupByNote(rows: Line<NoteRow>[]): Map<string, Line<NoteRow>[]> {
  const notes = new Map<string, Line<NoteRow>[]>();
  for (const r of rows) {
    const list = notes.get(r.row.belegnr);
    if (list) list.push(r);
    else notes.set(r.row.belegnr, [r]);
  }
  return notes;
}

async function storedNotes(db: Db, belegnrs: string[]) {
  const notes = new Map<string, { id: number; eu: boolean; status: string }>();
  const lines = new Map<number, StoredLine[]>();
  for (const part of chunks(belegnrs, 5000)) {
    const found = await db
      .selectFrom('delivery_notes')
      .select(['id', 'belegnr', 'eu', 'status'])
      .where('belegnr', '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const n of found) notes.set(n.belegnr, n);
    const ids = found.map((n) => n.id);
    if (ids.length === 0) continue;
    const foundLines = await db
      .selectFrom('delivery_note_lines as l')
      .innerJoin('articles as a', 'a.id', 'l.article_id')
      .select([
        'l.id',
        'l.delivery_note_id',
        'l.article_id',
        'a.nummer',
        'l.lsmenge',
        'l.pemenge',
        sql<number>`l.kommissioniert + l.fehlmenge`.as('picked'),
      ])
      .where('l.delivery_note_id', '=', sql<number>`any(${ids}::int[])`)
      .execute();
    for (const l of foundLines) {
      const list = lines.get(l.delivery_note_id);
      if (list) list.push(l);
      else lines.set(l.delivery_note_id, [l]);
    }
  }
  return { notes, lines };
}
