import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { chunks, type ImportKind, idsByKey, summary, writeInChunks } from '../framework.ts';
import { because, summaryLine } from '../messages.ts';

interface ProjectRow {
  projekt: string;
  carton: { name: string; height: number; width: number; depth: number; image: string | null } | null;
}

/**
 * Projects with their cartons (Kartonagen), one row per carton (a project without cartons: one row with an
 * empty Kartonage). Cartons are matched by project and name. With `--images <folder>`, each carton's Bild
 * is copied from that folder to where the packing station shows it: {imagesDir}/kartonagen/{carton id}.jpg.
 */
export const projects: ImportKind<ProjectRow> = {
  name: 'projects',
  columns: [
    { key: 'projekt', header: 'Projekt', aliases: ['Projektname'], required: true },
    { key: 'name', header: 'Kartonage', aliases: ['Karton', 'Kartonname', 'Verpackung'] },
    { key: 'height', header: 'Höhe', aliases: ['Höhe (mm)', 'Höhe mm'] },
    { key: 'width', header: 'Breite', aliases: ['Breite (mm)', 'Breite mm'] },
    { key: 'depth', header: 'Tiefe', aliases: ['Tiefe (mm)', 'Tiefe mm', 'Länge', 'Länge (mm)'] },
    { key: 'image', header: 'Bild', aliases: ['Bilddatei', 'Bildname'] },
  ],
  read(r) {
    const projekt = r.text('projekt', { required: true, max: 200, fold: true });
    const name = r.text('name', { max: 200, fold: true });
    const height = r.whole('height', 1, 100_000, name !== null);
    const width = r.whole('width', 1, 100_000, name !== null);
    const depth = r.whole('depth', 1, 100_000, name !== null);
    const image = r.text('image', { max: 200 });
    if (image && (image !== path.basename(image) || image.includes('\\') || image.startsWith('.'))) {
      r.refuse('image', because('imageWithPath', { image }));
    }
    if (image && !name) r.refuse('name', because('imageWithoutCarton', {}));
    if (!projekt || name === undefined || height === undefined || width === undefined || depth === undefined)
      return undefined;
    if (image === undefined) return undefined;
    if (!name) return { projekt, carton: null };
    return { projekt, carton: { name, height: height ?? 0, width: width ?? 0, depth: depth ?? 0, image } };
  },
  unit: (p) => p.projekt,
  async check(ctx, rows) {
    const first = new Map<string, number>();
    for (const { line, row } of rows) {
      if (!row.carton) continue;
      const key = `${row.projekt}\u0000${row.carton.name}`;
      const earlier = first.get(key);
      if (earlier !== undefined) ctx.refuse(line, 'name', because('cartonTwice', { line: earlier }));
      else first.set(key, line);
      const image = row.carton.image;
      // The pictures are looked at before anything is written; a run completed after a crash copies those
      // still there.
      if (image && ctx.imagesSource && ctx.phase === 'check') {
        const file = path.join(ctx.imagesSource, image);
        if (!fs.existsSync(file) || !fs.statSync(file).isFile())
          ctx.refuse(line, 'image', because('imageMissing', { file }));
        else if (!isJpeg(file)) ctx.refuse(line, 'image', because('imageNotJpeg', { image }));
      }
    }
  },
  async write(ctx, rows) {
    const names = [...new Set(rows.map((r) => r.row.projekt))];
    const projectCounts = await writeInChunks(
      names.map((name, i) => ({ line: i, row: name })),
      async (part) => {
        const { rows: written } = await sql<{ inserted: boolean }>`
          insert into projects (name) select * from unnest(${part}::text[])
          on conflict (name) do nothing
          returning true as inserted`.execute(ctx.trx);
        return written;
      },
    );
    const projectIds = await idsByKey(ctx.trx, 'projects', names);
    const stored = new Map<
      string,
      { id: number; height: number; width: number; depth: number; image: string | null }
    >();
    for (const part of chunks([...projectIds.values()], 5000)) {
      const found = await ctx.trx
        .selectFrom('cartons')
        .select(['id', 'project_id', 'name', 'height', 'width', 'depth', 'image'])
        .where('project_id', '=', sql<number>`any(${part}::int[])`)
        .orderBy('id')
        .execute();
      for (const c of found) {
        const key = `${c.project_id}\u0000${c.name}`;
        if (!stored.has(key)) stored.set(key, c);
      }
    }
    const cartons = { inserted: 0, updated: 0, total: 0 };
    const copies: { from: string; id: number }[] = [];
    for (const { row } of rows) {
      const carton = row.carton;
      if (!carton) continue;
      cartons.total++;
      const projectId = projectIds.get(row.projekt) ?? -1;
      const old = stored.get(`${projectId}\u0000${carton.name}`);
      const image = ctx.present.has('image') ? carton.image : (old?.image ?? null);
      const values = { height: carton.height, width: carton.width, depth: carton.depth, image };
      let id: number;
      if (!old) {
        id = (
          await ctx.trx
            .insertInto('cartons')
            .values({ project_id: projectId, name: carton.name, ...values })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        cartons.inserted++;
      } else {
        id = old.id;
        if (
          old.height !== values.height ||
          old.width !== values.width ||
          old.depth !== values.depth ||
          old.image !== image
        ) {
          await ctx.trx.updateTable('cartons').set(values).where('id', '=', id).execute();
          cartons.updated++;
        }
      }
      if (carton.image && ctx.imagesSource && fs.existsSync(path.join(ctx.imagesSource, carton.image)))
        copies.push({ from: path.join(ctx.imagesSource, carton.image), id });
    }
    const target = path.join(ctx.imagesDir, 'kartonagen');
    // Copied once the cartons are committed (their ids are the file names); an equal picture is left alone.
    const changed = copies.filter((copy) => !sameContent(copy.from, path.join(target, `${copy.id}.jpg`)));
    ctx.afterCommit(() => {
      if (changed.length > 0) fs.mkdirSync(target, { recursive: true });
      for (const copy of changed) fs.copyFileSync(copy.from, path.join(target, `${copy.id}.jpg`));
    });
    const result = [summary('projects', projectCounts), summary('cartons', cartons)];
    if (copies.length > 0) {
      result.push(
        summaryLine('pictures', {
          copied: changed.length,
          target,
          unchanged: copies.length - changed.length,
        }),
      );
    } else if (rows.some((r) => r.row.carton?.image)) result.push(summaryLine('picturesNotCopied', {}));
    return result;
  },
};

function sameContent(a: string, b: string): boolean {
  return fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));
}

/** JPEG files start with FF D8 FF. */
function isJpeg(file: string): boolean {
  const handle = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(3);
    fs.readSync(handle, head, 0, 3, 0);
    return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  } finally {
    fs.closeSync(handle);
  }
}
