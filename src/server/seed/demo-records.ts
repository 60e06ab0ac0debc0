/**
 * The fixed records of the demo warehouse (DESIGN §7): what the demo tour (docs/using.md) and the tests
 * rely on. The parts of `seedDemo` (demo.ts) build the generated rest around them.
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
  /**
   * Rollende Kommissionierung (issue 41): the pick cart KW01 with compartments KW01-1 … KW01-6, and eight
   * fixed notes LS100010 … LS100017 (after every other note, so the single-note flow's 'Nächster Auftrag' is
   * as before) whose lines share the pickable note's three locations (`picking`): a cart of the first six
   * visits three locations for six lines. LS100010 … LS100015 are single-line DHL notes (the profile's
   * wave); LS100017's 100007 × 6 asks the in-page question.
   */
  pickCart: { code: 'KW01', compartments: 6 },
  cartNotes: [
    { belegnr: 'LS100010', eu: true, versandart: 'DHL037', lines: [['100007', 1]] },
    { belegnr: 'LS100011', eu: true, versandart: 'DHL037', lines: [['100007', 2]] },
    { belegnr: 'LS100012', eu: true, versandart: 'DHL001', lines: [['100006', 1]] },
    { belegnr: 'LS100013', eu: true, versandart: 'DHL037', lines: [['100006', 3]] },
    { belegnr: 'LS100014', eu: false, versandart: 'DHL042', lines: [['100008', 1]] },
    { belegnr: 'LS100015', eu: true, versandart: 'DHL037', lines: [['100008', 2]] },
    {
      belegnr: 'LS100016',
      eu: true,
      versandart: 'GLS01',
      lines: [
        ['100007', 1],
        ['100006', 1],
      ],
    },
    {
      belegnr: 'LS100017',
      eu: true,
      versandart: 'DPD01',
      lines: [
        ['100008', 1],
        ['100007', 6],
      ],
    },
  ],
  /** A pick profile: single-line notes shipped with DHL (a versandart starting with 'DHL'), six to a cart. */
  pickProfile: { name: 'Einzelteile DHL', versandart: 'DHL', maxLines: 1, notesPerCart: 6 },
  batch: '123456',
  tracking: '00340434161094042557',
  /**
   * Permanente Inventur (issue 42): the shift lead's plan 'Gang A' (every aisle-A location) with a task due
   * today on each, and one difference waiting for `leitung` (Leitstand › Differenzen): 100009 on A-01-01-04
   * (nothing else lies there; no other test books either), book stock 30, counted 24 by `demo` (above
   * tolerance: a recount) and 25 by the card user (above again: it waits for approval).
   */
  inventory: {
    plan: { name: 'Gang A', from: 'A-01-01-01', to: 'A-05-04-04' },
    difference: {
      location: 'A-01-01-04',
      article: { nummer: '100009', name: 'Locher schwarz' },
      book: 30,
      firstCount: 24,
      recount: 25,
    },
  },
  /** Wareneingang (issue 22): 100001 × 20, and 100002 × 5 with the Charge and MHD the supplier announced. */
  receipt: { nummer: 'WE100001', lieferant: 'Bürobedarf Schulz GmbH', charge: 'L2611A', mhd: '2027-06-30' },
} as const;

/** The articles whose stock and note lines are fixed: the generated stock and notes leave them out. */
export const fixedArticleNummern: ReadonlySet<string> = new Set<string>([
  demo.article.nummer,
  demo.flaggedArticle.nummer,
  demo.article3.nummer,
  ...demo.picking.map((a) => a.nummer),
  demo.inventory.difference.article.nummer,
]);
