import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickClaim } from '../../src/contract/kommissionierung.ts';
import {
  kommissionierProfilAendern,
  kommissionierProfilAnlegen,
  kommissionierProfilEntfernen,
  kommissionierProfile,
  kommissionierwagen,
  type ProfilRow,
  type WagenRow,
  type WelleLieferschein,
  type WelleRow,
  welleFreigeben,
  welleHerausnehmen,
  welleLieferscheine,
  wellen,
} from '../../src/contract/leitstand/kommissionierung.ts';
import {
  releaseStepSize,
  releaseWave,
} from '../../src/server/features/leitstand/kommissionierung/release.ts';
import type { Steps } from '../../src/server/http/back-office.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, noteIdOf, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, caller } from '../support/endpoint-call.ts';

const DEMO_PROFILE = demo.pickProfile.name;
const form = (over: Record<string, unknown> = {}): BodyOf<typeof kommissionierProfilAnlegen> => ({
  name: 'Einzelteile DPD',
  versandart: 'DPD',
  maxPositionen: 1,
  eu: null,
  eingangVor: null,
  proWagen: 12,
  ...over,
});

/** Today's date in the site's time zone (testConfig: Europe/Berlin), as 'YYYY-MM-DD'. */
const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());

describe.each(databaseKinds())('Wellen and Kommissionierprofile in the Leitstand on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  let leadId: number;
  let workerId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
    workerId = await userIdOf(t.database.db, demo.passwordUser.username);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const as = (token = lead) => caller(t.app, token);
  const profileList = async () =>
    (await as()(kommissionierProfile)).json<{ data: { profile: ProfilRow[] } }>().data.profile;
  const profileId = async (name: string) => {
    const row = (await profileList()).find((p) => p.name === name);
    if (!row) throw new Error(`no profile ${name}`);
    return row.id;
  };
  const release = async (name: string) =>
    as()(welleFreigeben, { params: { id: await profileId(name) }, body: {} });
  const waveList = async () => (await as()(wellen)).json<{ data: { wellen: WelleRow[] } }>().data.wellen;
  const waveNotes = async (id: number) =>
    (await as()(welleLieferscheine, { params: { id } })).json<{
      data: { lieferscheine: WelleLieferschein[] };
    }>().data.lieferscheine;
  const takeOut = (waveId: number, lieferscheinId: number) =>
    as()(welleHerausnehmen, { params: { id: waveId }, body: { lieferscheinId } });
  const noteId = (belegnr: string) => noteIdOf(db(), belegnr);
  const membersOf = async (waveId: number) =>
    (
      await db()
        .selectFrom('pick_wave_notes as wn')
        .innerJoin('delivery_notes as n', 'n.id', 'wn.delivery_note_id')
        .select('n.belegnr')
        .where('wn.wave_id', '=', waveId)
        .orderBy('n.belegnr')
        .execute()
    ).map((r) => r.belegnr);
  const auditOf = (prefix: string) =>
    db().selectFrom('audit_log').selectAll().where('action', 'like', `${prefix}%`).orderBy('id').execute();
  /**
   * The notes a filter takes, read straight from the tables (not through the server's condition): nothing
   * picked or packed, something left on a line, in no wave, held by nobody.
   */
  const pickableWhere = async (filter: ReturnType<typeof sql>) =>
    (
      await sql<{ belegnr: string }>`
        select n.belegnr from delivery_notes n
        where n.status = 'offen' and n.picked_at is null
          and exists (select 1 from delivery_note_lines l
                      where l.delivery_note_id = n.id and l.kommissioniert + l.fehlmenge < l.lsmenge)
          and not exists (select 1 from pick_wave_notes w where w.delivery_note_id = n.id)
          and not exists (select 1 from pick_claims c where c.delivery_note_id = n.id)
          and ${filter}
        order by n.belegnr`.execute(db())
    ).rows.map((r) => r.belegnr);
  const lineCount = sql`(select count(*) from delivery_note_lines l where l.delivery_note_id = n.id)`;

  it('refuses a worker’s login every call of the page (403), and changes nothing', async () => {
    const id = await profileId(DEMO_PROFILE);
    const calls = [
      await as(worker)(kommissionierProfile),
      await as(worker)(kommissionierProfilAnlegen, { body: form() }),
      await as(worker)(kommissionierProfilAendern, { params: { id }, body: form() }),
      await as(worker)(kommissionierProfilEntfernen, { params: { id }, body: {} }),
      await as(worker)(welleFreigeben, { params: { id }, body: {} }),
      await as(worker)(wellen),
      await as(worker)(kommissionierwagen),
    ];
    expect(calls.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(await db().selectFrom('pick_waves').selectAll().execute()).toEqual([]);
    expect((await profileList()).map((p) => p.name)).toEqual([DEMO_PROFILE]);
  });

  it('lists the demo profile with its filters', async () => {
    expect(await profileList()).toEqual([
      expect.objectContaining({
        name: DEMO_PROFILE,
        versandart: 'DHL',
        maxPositionen: 1,
        eu: null,
        eingangVor: null,
        proWagen: 6,
      }),
    ]);
  });

  it('creates, edits in place and removes a profile: each change audited with who and what', async () => {
    const created = await as()(kommissionierProfilAnlegen, { body: form({ versandart: ' DPD ' }) });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ success: true, message: 'Profil „Einzelteile DPD“ angelegt.' });
    const id = created.json<{ id: number }>().id;
    const row = (await profileList()).find((p) => p.id === id);
    expect(row).toMatchObject({
      name: 'Einzelteile DPD',
      versandart: 'DPD',
      maxPositionen: 1,
      eu: null,
      eingangVor: null,
      proWagen: 12,
      geaendertVon: demo.leadUser.name,
    });
    const [createdAudit] = await auditOf('pickProfile.');
    expect(createdAudit).toMatchObject({
      user_id: leadId,
      action: 'pickProfile.create',
      subject: 'Einzelteile DPD',
      detail: {
        name: 'Einzelteile DPD',
        versandart: 'DPD',
        maxPositionen: 1,
        eu: 'EU und Nicht-EU',
        eingangVor: null,
        proWagen: 12,
      },
    });

    // Edited in place: only what changed is journalled, with before and after.
    const edited = await as()(kommissionierProfilAendern, {
      params: { id },
      body: form({ name: 'DPD bis 14 Uhr', eu: true, eingangVor: '14:00' }),
    });
    expect(edited.json()).toEqual({ success: true, message: 'Profil „DPD bis 14 Uhr“ gespeichert.' });
    expect((await profileList()).find((p) => p.id === id)).toMatchObject({
      name: 'DPD bis 14 Uhr',
      eu: true,
      eingangVor: '14:00',
      proWagen: 12,
    });
    const stored = await db()
      .selectFrom('pick_profiles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ changed_by: leadId, arrived_before: '14:00:00' });
    const updates = (await auditOf('pickProfile.')).filter((a) => a.action === 'pickProfile.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      subject: 'Einzelteile DPD',
      detail: {
        name: 'Einzelteile DPD → DPD bis 14 Uhr',
        eu: 'EU und Nicht-EU → nur EU',
        eingangVor: '– → 14:00',
      },
    });
    // Saved unchanged: nothing written, nothing journalled.
    const same = await as()(kommissionierProfilAendern, {
      params: { id },
      body: form({ name: 'DPD bis 14 Uhr', eu: true, eingangVor: '14:00' }),
    });
    expect(same.statusCode).toBe(200);
    expect(await auditOf('pickProfile.update')).toHaveLength(1);

    // Removed after a confirm on the page (a PUT: the contract has no DELETE); a second time: 404.
    const removed = await as()(kommissionierProfilEntfernen, { params: { id }, body: {} });
    expect(removed.json()).toEqual({ success: true, message: 'Profil „DPD bis 14 Uhr“ entfernt.' });
    expect((await profileList()).map((p) => p.name)).toEqual([DEMO_PROFILE]);
    expect((await auditOf('pickProfile.remove'))[0]).toMatchObject({
      user_id: leadId,
      subject: 'DPD bis 14 Uhr',
    });
    const again = await as()(kommissionierProfilEntfernen, { params: { id }, body: {} });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Dieses Profil gibt es nicht mehr. Bitte die Seite neu laden.');
  });

  it('refuses a second profile of the same name in German (409), on creating and on renaming', async () => {
    const duplicate = await as()(kommissionierProfilAnlegen, { body: form({ name: DEMO_PROFILE }) });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('Ein Profil „Einzelteile DHL“ gibt es schon.');
    const other = await as()(kommissionierProfilAnlegen, { body: form({ name: 'Zweites' }) });
    const id = other.json<{ id: number }>().id;
    const renamed = await as()(kommissionierProfilAendern, {
      params: { id },
      body: form({ name: DEMO_PROFILE }),
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe('Ein Profil „Einzelteile DHL“ gibt es schon.');
    expect((await profileList()).map((p) => p.name).sort()).toEqual([DEMO_PROFILE, 'Zweites']);
    expect(await auditOf('pickProfile.update')).toHaveLength(1);
    await as()(kommissionierProfilEntfernen, { params: { id }, body: {} });
  });

  it('refuses a profile without a name, or 0 or 100 notes per cart, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'Name'],
      [{ proWagen: 0 }, 'Lieferscheine je Wagen'],
      [{ proWagen: 100 }, 'Lieferscheine je Wagen'],
      [{ eingangVor: '25:00' }, 'Eingegangen vor'],
    ];
    for (const [over, field] of cases) {
      const res = await as()(kommissionierProfilAnlegen, { body: form(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });

  let dhlWave = 0;

  it('releases “Einzelteile DHL”: exactly the pickable single-line DHL notes, LS100010–15 among them', async () => {
    const expected = await pickableWhere(sql`upper(n.versandart) like 'DHL%' and ${lineCount} = 1`);
    for (let n = 10; n <= 15; n++) expect(expected).toContain(`LS1000${n}`);
    const res = await release(DEMO_PROFILE);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ welleId: number; lieferscheine: number; message: string }>();
    dhlWave = answer.welleId;
    expect(answer.lieferscheine).toBe(expected.length);
    expect(answer.message).toBe(`Welle ${dhlWave} freigegeben: ${expected.length} Lieferscheine.`);
    const members = await membersOf(dhlWave);
    expect(members).toEqual(expected);
    expect(members).not.toContain('LS100016');
    expect(members).not.toContain('LS100017');
    expect(
      await db().selectFrom('pick_waves').selectAll().where('id', '=', dhlWave).executeTakeFirstOrThrow(),
    ).toMatchObject({ profile_name: DEMO_PROFILE, notes_per_cart: 6, released_by: leadId });
    expect(await auditOf('wave.release')).toEqual([
      expect.objectContaining({
        user_id: leadId,
        subject: `Welle ${dhlWave}`,
        detail: { profil: DEMO_PROFILE, lieferscheine: expected.length, proWagen: 6 },
      }),
    ]);
  });

  it('takes no note twice: released again, nothing matches (409 in German) and no wave is left behind', async () => {
    const res = await release(DEMO_PROFILE);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Keine Lieferscheine passen zu diesem Profil.');
    expect(await db().selectFrom('pick_waves').select('id').execute()).toEqual([{ id: dhlWave }]);
    expect(await auditOf('wave.release')).toHaveLength(1);
  });

  it('reads “eingegangen vor 14:00” as before 14:00 today in the site’s time zone, and every older note', async () => {
    await db()
      .updateTable('delivery_notes')
      .set({ versandart: 'GLSX01' })
      .where('belegnr', '=', 'LS100016')
      .execute();
    const created = await as()(kommissionierProfilAnlegen, {
      body: form({ name: 'GLSX vor 14 Uhr', versandart: 'glsx', maxPositionen: null, eingangVor: '14:00' }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const arrived = (local: string) =>
      db()
        .updateTable('delivery_notes')
        .set({ created_at: sql`${local}::timestamp at time zone 'Europe/Berlin'` })
        .where('belegnr', '=', 'LS100016')
        .execute();
    await arrived(`${berlinToday()} 14:30`);
    expect((await release('GLSX vor 14 Uhr')).statusCode).toBe(409);
    await arrived(`${berlinToday()} 13:59`);
    const today = await release('GLSX vor 14 Uhr');
    expect(today.statusCode, today.body).toBe(200);
    expect(await membersOf(today.json<{ welleId: number }>().welleId)).toEqual(['LS100016']);
  });

  it('takes no note a picker holds, and two releases at once never put one note into two waves', async () => {
    const claimed = await as(worker)(pickClaim, { body: { belegnr: 'LS100017' } });
    expect(claimed.statusCode, claimed.body).toBe(200);
    await as()(kommissionierProfilAnlegen, {
      body: form({ name: 'Alles', versandart: null, maxPositionen: null, proWagen: 20 }),
    });
    const expected = await pickableWhere(sql`true`);
    expect(expected.length).toBeGreaterThan(0);
    const answers = await Promise.all([release('Alles'), release('Alles')]);
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of answers)
      if (r.statusCode !== 200) expect(r.json().message).toMatch(/Keine Lieferscheine/);
    const sets = await Promise.all(ok.map((r) => membersOf(r.json<{ welleId: number }>().welleId)));
    const all = sets.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual(expected);
    expect(all).not.toContain('LS100017');
    expect(ok.reduce((sum, r) => sum + r.json<{ lieferscheine: number }>().lieferscheine, 0)).toBe(
      all.length,
    );
  });

  /** Puts a wave's note into a compartment of KW01 on an open trip of the worker, as the cart's fill does. */
  const putOnCart = async (belegnr: string, compartment: number, waveId: number | null) => {
    const cart = await db()
      .selectFrom('pick_carts')
      .select('id')
      .where('code', '=', 'KW01')
      .executeTakeFirstOrThrow();
    let trip = await db()
      .selectFrom('pick_trips')
      .select('id')
      .where('cart_id', '=', cart.id)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    trip ??= await db()
      .insertInto('pick_trips')
      .values({ cart_id: cart.id, user_id: workerId, session_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fach = await db()
      .selectFrom('pick_cart_compartments')
      .select('id')
      .where('code', '=', `KW01-${compartment}`)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('pick_trip_notes')
      .values({
        trip_id: trip.id,
        cart_id: cart.id,
        compartment_id: fach.id,
        delivery_note_id: await noteId(belegnr),
        wave_id: waveId,
      })
      .execute();
  };

  it('takes a note out of its wave before any cart held it (audited), and refuses it once on a cart (409)', async () => {
    const res = await takeOut(dhlWave, await noteId('LS100010'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`LS100010 aus Welle ${dhlWave} genommen.`);
    expect(await membersOf(dhlWave)).not.toContain('LS100010');
    expect(await auditOf('wave.takeOut')).toEqual([
      expect.objectContaining({
        user_id: leadId,
        subject: 'LS100010',
        detail: { welle: dhlWave, lieferschein: 'LS100010' },
      }),
    ]);
    const twice = await takeOut(dhlWave, await noteId('LS100010'));
    expect(twice.statusCode).toBe(404);
    expect(twice.json().message).toBe(`Dieser Lieferschein ist nicht in Welle ${dhlWave}.`);

    await putOnCart('LS100011', 1, dhlWave);
    const onCart = await takeOut(dhlWave, await noteId('LS100011'));
    expect(onCart.statusCode).toBe(409);
    expect(onCart.json().message).toBe('LS100011 liegt schon auf einem Wagen und bleibt in der Welle.');
    expect(await membersOf(dhlWave)).toContain('LS100011');
    expect(await auditOf('wave.takeOut')).toHaveLength(1);
  });

  it('refuses taking out a note a cart held from the wave, even once the cart let it go', async () => {
    await putOnCart('LS100015', 6, dhlWave);
    await db()
      .updateTable('pick_trip_notes')
      .set({ freed_at: sql`now()`, freed_reason: 'abgebrochen' })
      .where('delivery_note_id', '=', await noteId('LS100015'))
      .execute();
    const res = await takeOut(dhlWave, await noteId('LS100015'));
    expect(res.statusCode).toBe(409);
    expect(await membersOf(dhlWave)).toContain('LS100015');
  });

  it('counts a wave’s notes open, on a cart (with cart and picker), picked and short', async () => {
    const [n12, n13] = [await noteId('LS100012'), await noteId('LS100013')];
    // LS100012 picked whole; LS100013 picked with a line short (as the handheld books them).
    await db()
      .updateTable('delivery_notes')
      .set({ picked_at: sql`now()`, picked_by: workerId })
      .where('id', 'in', [n12, n13])
      .execute();
    await db()
      .updateTable('delivery_note_lines')
      .set({ fehlmenge: 1 })
      .where('delivery_note_id', '=', n13)
      .execute();
    const members = await membersOf(dhlWave);
    const wave = (await waveList()).find((w) => w.id === dhlWave);
    expect(wave).toMatchObject({
      profil: DEMO_PROFILE,
      proWagen: 6,
      freigegebenVon: demo.leadUser.name,
      lieferscheine: members.length,
      aufWagen: 1,
      kommissioniert: 2,
      offen: members.length - 3,
      fehlmenge: 1,
      wagen: [{ wagen: 'KW01', kommissionierer: demo.passwordUser.name }],
    });
    // Newest first.
    const ids = (await waveList()).map((w) => w.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const notes = await waveNotes(dhlWave);
    expect(notes.map((n) => n.belegnr)).toEqual(members);
    const byNumber = Object.fromEntries(notes.map((n) => [n.belegnr, n]));
    expect(byNumber.LS100011).toMatchObject({
      zustand: 'aufWagen',
      fach: 'KW01-1',
      kommissionierer: demo.passwordUser.name,
      herausnehmbar: false,
      positionen: 1,
    });
    expect(byNumber.LS100012).toMatchObject({ zustand: 'kommissioniert', fehlmenge: false });
    expect(byNumber.LS100013).toMatchObject({ zustand: 'kommissioniert', fehlmenge: true });
    expect(byNumber.LS100014).toMatchObject({ zustand: 'offen', fach: null, herausnehmbar: true });
    expect(byNumber.LS100015).toMatchObject({ zustand: 'offen', herausnehmbar: false });
    expect((await as()(welleLieferscheine, { params: { id: 999_999 } })).statusCode).toBe(404);
  });

  it('shows the carts with what lies in each compartment now and who picks with it since when', async () => {
    const res = await as()(kommissionierwagen);
    expect(res.statusCode).toBe(200);
    const [cart] = res.json<{ data: { wagen: WagenRow[] } }>().data.wagen;
    expect(cart?.code).toBe('KW01');
    expect(cart?.fahrt?.kommissionierer).toBe(demo.passwordUser.name);
    expect(Math.abs(Date.now() - Date.parse(cart?.fahrt?.seit ?? ''))).toBeLessThan(120_000);
    expect(cart?.faecher.map((f) => f.code)).toEqual([
      'KW01-1',
      'KW01-2',
      'KW01-3',
      'KW01-4',
      'KW01-5',
      'KW01-6',
    ]);
    expect(cart?.faecher[0]?.lieferschein).toEqual({
      id: await noteId('LS100011'),
      belegnr: 'LS100011',
      zustand: 'inArbeit',
      fahrtOffen: true,
    });
    // LS100015 was let go: its compartment is empty again.
    expect(cart?.faecher.slice(1).every((f) => f.lieferschein === null)).toBe(true);
    await db()
      .updateTable('delivery_notes')
      .set({ picked_at: sql`now()` })
      .where('belegnr', '=', 'LS100011')
      .execute();
    const after = (await as()(kommissionierwagen)).json<{ data: { wagen: WagenRow[] } }>().data.wagen;
    expect(after[0]?.faecher[0]?.lieferschein).toMatchObject({
      belegnr: 'LS100011',
      zustand: 'kommissioniert',
    });
  });

  it('counts and lists a wave larger than one step’s read whole (650 notes)', async () => {
    await sql`
      insert into delivery_notes (belegnr, eu, versandart)
      select 'LS8' || lpad(g::text, 6, '0'), true, 'VIEL01' from generate_series(1, 650) g`.execute(db());
    await sql`
      insert into delivery_note_lines (delivery_note_id, article_id, lsmenge)
      select n.id, (select min(id) from articles), 1 from delivery_notes n where n.versandart = 'VIEL01'`.execute(
      db(),
    );
    await as()(kommissionierProfilAnlegen, {
      body: form({ name: 'Viel', versandart: 'VIEL', maxPositionen: null, proWagen: 20 }),
    });
    const res = await release('Viel');
    expect(res.json()).toMatchObject({ lieferscheine: 650 });
    const id = res.json<{ welleId: number }>().welleId;
    // The last 50 by number picked: they lie in the last of the pieces read.
    await db()
      .updateTable('delivery_notes')
      .set({ picked_at: sql`now()` })
      .where('belegnr', '>', 'LS8000600')
      .where('versandart', '=', 'VIEL01')
      .execute();
    expect((await waveList()).find((w) => w.id === id)).toMatchObject({
      lieferscheine: 650,
      offen: 600,
      kommissioniert: 50,
    });
    const notes = await waveNotes(id);
    expect(notes).toHaveLength(650);
    expect(notes[0]?.belegnr).toBe('LS8000001');
    expect(notes[649]).toMatchObject({ belegnr: 'LS8000650', zustand: 'kommissioniert' });
  });
  /** `count` new pickable single-line notes of Versandart `code`, numbered `prefix` + 000001 …. */
  const newNotes = async (prefix: string, code: string, count: number, created = sql`now()`) => {
    await sql`
      insert into delivery_notes (belegnr, eu, versandart, created_at)
      select ${prefix} || lpad(g::text, 6, '0'), true, ${code}, ${created}
      from generate_series(1, ${count}::integer) g`.execute(db());
    await sql`
      insert into delivery_note_lines (delivery_note_id, article_id, lsmenge)
      select n.id, (select min(id) from articles), 1 from delivery_notes n
      where n.versandart = ${code} and not exists (select 1 from delivery_note_lines l where l.delivery_note_id = n.id)`.execute(
      db(),
    );
  };
  const wavesOf = async (profile: string) =>
    (await db().selectFrom('pick_waves').select('id').where('profile_name', '=', profile).execute()).map(
      (w) => w.id,
    );

  it('releases once per X-Idempotency-Key: the key again, also at the same moment, replays the one wave', async () => {
    await newNotes('LS7', 'EINMAL01', 3);
    await as()(kommissionierProfilAnlegen, {
      body: form({ name: 'Einmal', versandart: 'EINMAL', maxPositionen: null, proWagen: 20 }),
    });
    const id = await profileId('Einmal');
    const key = randomUUID();
    const first = await as()(welleFreigeben, { params: { id }, body: {}, key });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ lieferscheine: 3 });
    // A note that came since: the repeat does not take it.
    await newNotes('LS71', 'EINMAL01', 1);
    const again = await as()(welleFreigeben, { params: { id }, body: {}, key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await wavesOf('Einmal')).toEqual([first.json<{ welleId: number }>().welleId]);
    expect(await auditOf('wave.release')).toHaveLength(
      (await db().selectFrom('pick_waves').select('id').execute()).length,
    );

    // Two copies of one click at once (a retry while the first runs): one wave, both told of it.
    const other = randomUUID();
    const both = await Promise.all([
      as()(welleFreigeben, { params: { id }, body: {}, key: other }),
      as()(welleFreigeben, { params: { id }, body: {}, key: other }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both[1]?.json()).toEqual(both[0]?.json());
    expect(both[0]?.json()).toMatchObject({ lieferscheine: 1 });
    expect(await wavesOf('Einmal')).toHaveLength(2);

    // Nothing left: 409 stored under the key, no wave row left behind, and the same answer again.
    const none = randomUUID();
    const refused = await as()(welleFreigeben, { params: { id }, body: {}, key: none });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Keine Lieferscheine passen zu diesem Profil.');
    const replayed = await as()(welleFreigeben, { params: { id }, body: {}, key: none });
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await wavesOf('Einmal')).toHaveLength(2);
  });

  it('takes every note of a release larger than a step, oldest first (created_at, then id) step by step', async () => {
    // Newer notes get lower ids, and each four share one instant (with microseconds): the order is not the
    // ids', and a cursor that lost the microseconds or the id would skip or repeat notes.
    await newNotes(
      'LS6',
      'ORDNUNG01',
      400,
      sql`'2026-01-01 08:00:00.123456+00'::timestamptz - ((g / 4) || ' minutes')::interval`,
    );
    await as()(kommissionierProfilAnlegen, {
      body: form({ name: 'Ordnung', versandart: 'ORDNUNG', maxPositionen: null, proWagen: 20 }),
    });
    const oldestFirst = (
      await db()
        .selectFrom('delivery_notes')
        .select('id')
        .where('versandart', '=', 'ORDNUNG01')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((n) => n.id);
    // Called directly, with steps of at most 25 notes: what a step took is not visible through the API.
    const afterEachStep: number[][] = [];
    const steps: Steps = {
      run: async (work) => {
        const done = await work();
        const { rows } = await sql<{ id: number }>`
          select wn.delivery_note_id as id from pick_wave_notes wn
          where wn.wave_id = (select max(id) from pick_waves)`.execute(db());
        afterEachStep.push(rows.map((r) => r.id));
        return done;
      },
    };
    const answer = await releaseWave(
      steps,
      db(),
      await profileId('Ordnung'),
      { userId: leadId, requestKey: null },
      { now: new Date(), claimMinutes: 15, timeZone: 'Europe/Berlin' },
      releaseStepSize(25),
    );
    expect(answer.lieferscheine).toBe(400);
    expect([...(afterEachStep.at(-1) ?? [])].sort((a, b) => a - b)).toEqual(
      [...oldestFirst].sort((a, b) => a - b),
    );
    // Each step took the next oldest notes: what the wave holds after it is the oldest so many.
    const taking = afterEachStep.filter((ids, i) => ids.length > (afterEachStep[i - 1]?.length ?? 0));
    expect(taking.length).toBeGreaterThanOrEqual(400 / 25);
    for (const ids of taking) expect(new Set(ids)).toEqual(new Set(oldestFirst.slice(0, ids.length)));
  });
});
