// Over 400 lines: a case for each GS1 rule, both ways, for the one parser in gs1.ts; split by rule they
// would only be harder to hold beside the specification's chapters.
import { describe, expect, it } from 'vitest';
import { GROUP_SEPARATOR as GS, type Gs1Data, isoDate, parseGs1, validCheckDigit } from './gs1.ts';
import { texts } from './texts.ts';

/**
 * Cases written from the GS1 General Specifications and the Barcode Syntax Dictionary (src/contract/gs1/):
 * each rule both ways. Numbers with valid check digits: GTIN 04006381333931 (demo article 100001),
 * 09506000134352 (GS1's Digital Link example), SSCC 340123450000000017 (demo pallet), GLN 4012345000009.
 */
const today = new Date('2026-11-23T12:00:00Z');
const read = (scan: string) => parseGs1(scan, today);
const t = texts.gs1;

const GTIN = '04006381333931';
const GTIN_DL = '09506000134352';
const SSCC = '340123450000000017';
const GLN = '4012345000009';
const DL = 'https://id.gs1.org';

/** Read cleanly: kind gs1, nothing left out, and these fields. */
const clean: [string, string, Partial<Gs1Data>][] = [
  // ── forms of element strings
  ['GS1-128 with ]C1', `]C101${GTIN}`, { gtin: GTIN, gtinFrom: '01' }],
  [
    'GS1 DataMatrix with ]d2',
    `]d201${GTIN}10L1${GS}17271231`,
    { gtin: GTIN, batch: 'L1', expiry: '2027-12-31' },
  ],
  ['GS1 QR with ]Q3', `]Q301${GTIN}10L1`, { gtin: GTIN, batch: 'L1' }],
  ['GS1 DataBar with ]e0', `]e001${GTIN}3103000250`, { gtin: GTIN }],
  ['GS1 DotCode with ]J1', `]J101${GTIN}21S1`, { gtin: GTIN }],
  [
    'no identifier, a group separator',
    `01${GTIN}10L1${GS}15271231`,
    { batch: 'L1', bestBefore: '2027-12-31' },
  ],
  ['FNC1 in first position as GS', `${GS}01${GTIN}10L1`, { gtin: GTIN, batch: 'L1' }],
  ['a separator after a predefined-length field', `]C101${GTIN}${GS}10L1`, { batch: 'L1' }],
  ['two separators in a row', `]C101${GTIN}10L1${GS}${GS}17271231`, { batch: 'L1', expiry: '2027-12-31' }],
  ['unmarked digits: 01 + GTIN', `01${GTIN}`, { gtin: GTIN }],
  ['unmarked digits: 00 + SSCC', `00${SSCC}`, { sscc: SSCC }],
  ['unmarked, variable field last', `01${GTIN}10ABC`, { batch: 'ABC' }],
  ['SSCC with ]C1', `]C100${SSCC}`, { sscc: SSCC, gtin: null }],
  [
    'logistics label: SSCC, content GTIN, count, best before, batch, ship-to GLN',
    `]C100${SSCC}02${GTIN}15271200` + `3712${GS}10L-42${GS}410${GLN}`,
    { sscc: SSCC, gtin: GTIN, gtinFrom: '02', count: 12, batch: 'L-42', mhd: '2027-12-31' },
  ],
  [
    'variable measure with price (3922) and count (30)',
    `]C101${GTIN}3015${GS}39221299`,
    {
      count: 15,
      elements: [
        { ai: '01', value: GTIN },
        { ai: '30', value: '15' },
        { ai: '3922', value: '1299' },
      ],
    },
  ],
  ['ship-to postal code with country (421)', `]C100${SSCC}42127612345`, { sscc: SSCC }],
  [
    'payment slip: pay-to GLN (415), reference (8020), amount (3902)',
    `]C1415${GLN}8020REF-1${GS}3902123456`,
    {
      elements: [
        { ai: '415', value: GLN },
        { ai: '8020', value: 'REF-1' },
        { ai: '3902', value: '123456' },
      ],
    },
  ],
  ['IBAN (8007) with pay-to GLN', `(415)${GLN}(8020)R1(8007)DE89370400440532013000`, {}],
  ['(91)–(99) take 90 characters', `]d201${GTIN}91${'X'.repeat(90)}`, { gtin: GTIN }],
  ['(90) takes 30 characters', `]d201${GTIN}90${'X'.repeat(30)}`, { gtin: GTIN }],
  ['character set 82, every symbol', `]d201${GTIN}10!"%&'()*+,-./:;<=>?_`, { batch: `!"%&'()*+,-./:;<=>?_` }],
  ['character set 82, digits and both cases', `]d201${GTIN}21aZ09xY`, { gtin: GTIN }],
  ['character set 39 (8010 CPID): # - / upper case', `]d28010AB#-/12${GS}8011123`, {}],
  ['character set 64 (8030 signature): base64url', `]d200${SSCC}8030AbC-_09==`, { sscc: SSCC }],
  ['GSIN (402) check digit', `]C140204012345000010004`, {}],
  ['GLNs (410)–(417)', `(00)${SSCC}(410)${GLN}(411)${GLN}(412)4012345000016(413)${GLN}`, { sscc: SSCC }],
  ['party GLN (417), a key of its own', `(417)${GLN}`, { elements: [{ ai: '417', value: GLN }] }],
  ['GDTI (253) with serial', `(253)4012345000016ABC`, {}],
  ['GRAI (8003): zero, GTIN-13 style key, serial', `(8003)0${GLN}XYZ`, {}],
  ['GSRN (8018) with date of birth (7250)', '(8018)952123456789012345(7250)19800229', {}],
  ['ITIP (8006): piece 1 of 2', `(8006)${GTIN}0102`, {}],
  ['GMN (8013): check-character pair', '(8013)1987654Ad4X4bL5ttr2310c2K', {}],
  ['dimensions (8001)', `(01)${GTIN}(8001)12340123400510`, {}],
  ['harvest dates from–to (7007)', `(01)${GTIN}(7007)260101260131`, {}],
  ['countries of processing (425): three of five', `(01)${GTIN}(425)276040208`, {}],
  ['expiry date and time (7003)', `(01)${GTIN}(7003)2712312359`, {}],
  ['production date and hour (8008)', `(01)${GTIN}(8008)26112307`, {}],
  ['ship-to geo (4309)', `(00)${SSCC}(4309)14080000000500000000`, {}],
  ['dangerous goods yes (4321)', `(00)${SSCC}(4321)1`, {}],
  ['birth sequence 1/2 (7258)', '(8018)952123456789012345(7259)BABY(7258)1/2', {}],
  ['the same field twice with the same value: once', `(01)${GTIN}(10)A(10)A`, { batch: 'A' }],
  ['GTIN twice with the same value', `(01)${GTIN}(01)${GTIN}`, { elements: [{ ai: '01', value: GTIN }] }],
  // ── the bracket form
  ['brackets', `(01)${GTIN}(10)ABC(17)271231`, { gtin: GTIN, batch: 'ABC', expiry: '2027-12-31' }],
  ['brackets with spaces between fields', `(01) ${GTIN} (10) ABC`, { batch: 'ABC' }],
  ['brackets: \\( is a bracket in the data', `(01)${GTIN}(10)A\\(1)`, { batch: 'A(1)' }],
  [
    'brackets: a weight (3103)',
    `(01)${GTIN}(3103)000123`,
    {
      elements: [
        { ai: '01', value: GTIN },
        { ai: '3103', value: '000123' },
      ],
    },
  ],
  // ── Digital Link
  ['Digital Link', `${DL}/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  ['Digital Link behind ]Q1 (QR Code)', `]Q1${DL}/01/${GTIN_DL}/10/ABC`, { gtin: GTIN_DL, batch: 'ABC' }],
  ['Digital Link behind ]d1 (DataMatrix)', `]d1${DL}/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  ['Digital Link behind ]Q3 (GS1 QR)', `]Q3${DL}/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  ['Digital Link behind ]d2', `]d2${DL}/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  ['Digital Link in capitals (QR alphanumeric mode)', `HTTPS://ID.GS1.ORG/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  ['Digital Link over http', `http://example.com/01/${GTIN_DL}`, { gtin: GTIN_DL }],
  [
    'Digital Link with the resolver’s own path',
    `https://example.com/shop/p/01/${GTIN_DL}/10/L1`,
    { batch: 'L1' },
  ],
  [
    'Digital Link: a path segment 01 before the key',
    `https://example.com/01/x/01/${GTIN_DL}`,
    { gtin: GTIN_DL },
  ],
  [
    'Digital Link 1.0 short names',
    'https://example.com/gtin/9506000134352/lot/L%2F7',
    { gtin: GTIN_DL, batch: 'L/7' },
  ],
  ['Digital Link: GTIN-13 padded', `${DL}/01/9506000134352`, { gtin: GTIN_DL }],
  ['Digital Link: GTIN-12 padded', `${DL}/01/614141000036`, { gtin: '00614141000036' }],
  ['Digital Link: GTIN-8 padded', `${DL}/01/96385074`, { gtin: '00000096385074' }],
  ['Digital Link: qualifiers 22, 10, 21 in order', `${DL}/01/${GTIN_DL}/22/C1/10/L1/21/S1`, { batch: 'L1' }],
  ['Digital Link: qualifiers 10, 21 (22 left out)', `${DL}/01/${GTIN_DL}/10/L1/21/S1`, { batch: 'L1' }],
  ['Digital Link: the other order, 235', `${DL}/01/${GTIN_DL}/235/TPX1`, { gtin: GTIN_DL }],
  [
    'Digital Link: attributes in the query',
    `${DL}/01/${GTIN_DL}?15=271231&3103=000250`,
    { bestBefore: '2027-12-31' },
  ],
  ['Digital Link: price and count in the query', `${DL}/01/${GTIN_DL}?3922=1299&30=2`, { count: 2 }],
  ['Digital Link: batch as an attribute', `${DL}/01/${GTIN_DL}?10=L1`, { batch: 'L1' }],
  [
    'Digital Link: other parameters ignored',
    `${DL}/01/${GTIN_DL}?linkType=gs1:pip&foo=bar&17=271231`,
    { expiry: '2027-12-31' },
  ],
  ['Digital Link: + stays + (character set 82)', `${DL}/01/${GTIN_DL}?10=A+B`, { batch: 'A+B' }],
  ['Digital Link: percent-encoded', `${DL}/01/${GTIN_DL}/10/A%2FB%25`, { batch: 'A/B%' }],
  ['Digital Link: fragment ignored', `${DL}/01/${GTIN_DL}/10/L1#top`, { batch: 'L1' }],
  ['Digital Link: SSCC key', `${DL}/00/${SSCC}`, { sscc: SSCC }],
  ['Digital Link: GLN key with extension', `${DL}/414/${GLN}/254/7`, {}],
  ['Digital Link: ITIP key with its qualifiers', `${DL}/8006/${GTIN}0102/10/L1`, { batch: 'L1' }],
  ['Digital Link: GIAI key', `${DL}/8004/4012345A1`, {}],
  ['Digital Link: exp short name in the query', `${DL}/gtin/${GTIN_DL}?exp=271231`, { expiry: '2027-12-31' }],
  // ── dates (YYMMDD, day 00: the month's last day; GS1's sliding century)
  ['(11) production date', `(01)${GTIN}(11)261123`, {}],
  ['(13) packaging date, day 00', `(01)${GTIN}(13)261100`, {}],
  ['(15) 29 February of a leap year', `(01)${GTIN}(15)280229`, { bestBefore: '2028-02-29' }],
  ['(15) day 00 in February of a leap year', `(01)${GTIN}(15)280200`, { bestBefore: '2028-02-29' }],
  ['(16) sell by, day 00', `(01)${GTIN}(16)270200`, { sellBy: '2027-02-28' }],
  ['(17) 31 December', `(01)${GTIN}(17)271231`, { expiry: '2027-12-31' }],
  ['(17) 50 years ahead: this century', `(01)${GTIN}(17)761231`, { expiry: '2076-12-31' }],
  ['(12) due date with its payment reference', `(415)${GLN}(8020)R1(12)270115`, {}],
  // ── MHD (decision 15): (15) best before, else (17) expiry, else (16) sell by
  ['MHD from (15)', `(01)${GTIN}(15)271130`, { mhd: '2027-11-30', mhdFrom: '15' }],
  ['MHD from (17) when the label has no (15)', `(01)${GTIN}(17)271130`, { mhd: '2027-11-30', mhdFrom: '17' }],
  ['MHD from (16) when the label has neither', `(01)${GTIN}(16)271130`, { mhd: '2027-11-30', mhdFrom: '16' }],
  ['MHD: (15) before (17)', `(01)${GTIN}(17)270101(15)271231`, { mhd: '2027-12-31', expiry: '2027-01-01' }],
  ['MHD: (17) before (16)', `(01)${GTIN}(16)270101(17)271231`, { mhd: '2027-12-31', mhdFrom: '17' }],
  ['MHD: (15) before (16)', `(01)${GTIN}(16)270101(15)271231`, { mhd: '2027-12-31', sellBy: '2027-01-01' }],
  ['no MHD without a date', `(01)${GTIN}(10)L1`, { mhd: null, mhdFrom: null }],
];

/** Refused as a whole, with this message. */
const refused: [string, string, string][] = [
  // ── a key's check digit or format
  ['(01) check digit', `]C101${GTIN.slice(0, 13)}2`, t.checkDigit('01')],
  ['(01) check digit, the rest fine', `]d20104006381333932${'10L1'}`, t.checkDigit('01')],
  ['(00) check digit', `]C100${SSCC.slice(0, 17)}8`, t.checkDigit('00')],
  ['(02) check digit', `(02)04006381333930(37)5`, t.checkDigit('02')],
  ['(414) GLN check digit (a location key)', '(414)4012345000008', t.checkDigit('414')],
  ['(415) pay-to GLN check digit', `(415)4012345000008(8020)R1`, t.checkDigit('415')],
  ['(417) party GLN check digit (a key)', '(417)4012345000008', t.checkDigit('417')],
  ['(253) GDTI check digit', '(253)4012345000017A', t.checkDigit('253')],
  ['(8017) GSRN check digit', '(8017)952123456789012346', t.checkDigit('8017')],
  ['(8013) GMN check-character pair', '(8013)1987654Ad4X4bL5ttr2310c2L', t.checkDigit('8013')],
  ['(402) GSIN check digit (a shipment key)', `(00)${SSCC}(402)04012345000010005`, t.checkDigit('402')],
  ['(8010) CPID in lower case (character set 39)', `]d28010ab${GS}8011123`, t.badCharacters('8010')],
  ['(8003) GRAI must start with 0', `(8003)1${GLN}`, t.badValue('8003')],
  ['(8006) piece 3 of 2', `(8006)${GTIN}0302`, t.badValue('8006')],
  ['(01) with a letter', `(01)0400638133393A`, t.notDigits('01')],
  ['(01) cut short', ']C1010400638133', t.tooShort('01')],
  ['(01) empty', '(01)', t.empty('01')],
  ['(00) with 17 digits in brackets', `(00)${SSCC.slice(1)}`, t.tooShort('00')],
  // ── Digital Link keys: the same rules
  ['Digital Link /01/123', `${DL}/01/123`, t.tooShort('01')],
  ['Digital Link: 18-digit GTIN', `${DL}/01/0950600013435200`, t.tooLong('01')],
  ['Digital Link: 8-digit SSCC', `${DL}/00/12345670`, t.tooShort('00')],
  ['Digital Link: GTIN-13 with a wrong check digit', `${DL}/01/9506000134353`, t.checkDigit('01')],
  ['Digital Link behind ]Q3: wrong check digit', `]Q3${DL}/01/09506000134353`, t.checkDigit('01')],
  [
    'Digital Link: key by short name, wrong check digit',
    'https://example.com/gtin/09506000134353',
    t.checkDigit('01'),
  ],
  ['Digital Link: GTIN with letters', `${DL}/01/0950600013435X`, t.notDigits('01')],
  ['Digital Link: GTIN twice (path and query)', `${DL}/01/${GTIN_DL}?01=${GTIN}`, t.twice('01')],
  // ── keys that contradict each other
  ['(01) with (02)', `(01)${GTIN}(02)${GTIN}(37)1`, t.notWith('01', '02')],
  ['(01) twice with different values', `(01)${GTIN}(01)${GTIN_DL}`, t.twice('01')],
  ['(00) twice with different values', `(00)${SSCC}(00)106141411234567897`, t.twice('00')],
  ['(8017) with (8018)', '(8017)952123456789012345(8018)952123456789012345', t.notWith('8017', '8018')],
  ['(01) with (255) coupon', `(01)${GTIN}(255)${GLN}`, t.notWith('01', '255')],
  ['(02) with (8026)', `(02)${GTIN}(37)1(8026)${GTIN}0102`, t.notWith('02', '8026')],
  // ── structure
  ['no AI where one must start', `]C101${GTIN}${GS}AB12`, t.unreadable],
  ['nothing after the identifier', ']C1', t.unreadable],
  ['text behind ]d2', ']d2LHM000001', t.unreadable],
  ['brackets: an AI with a letter', `(01)${GTIN}(1A)X`, t.unreadable],
  ['brackets: unclosed', `(01)${GTIN}(10`, t.unreadable],
  ['Digital Link: broken percent-encoding', `${DL}/01/${GTIN_DL}/10/A%ZZ`, t.unreadable],
  ['Digital Link: a key, then no pairs', `${DL}/01/${GTIN_DL}/foo/bar`, t.unreadable],
  ['Digital Link: a key with its value missing', `${DL}/01/${GTIN_DL}/10`, t.unreadable],
  // ── nothing usable left
  ['only an unknown AI', ']C15512345', t.unknownAi('5512')],
  ['only a broken date', ']C117261340', t.badDate('17')],
];

/** Read with parts left out: the rest as given, and these problems (AI, message). */
const partial: [string, string, Partial<Gs1Data>, [string, string][]][] = [
  // ── unknown AIs: named, stepped over, the rest read
  [
    'unknown (3106) with a predefined length',
    `]C101${GTIN}3106000123${'10L1'}`,
    { gtin: GTIN, batch: 'L1' },
    [['3106', t.unknownAi('3106')]],
  ],
  [
    'unknown (04), unallocated predefined prefix',
    `]C101${GTIN}04${'1'.repeat(16)}10L1`,
    { batch: 'L1' },
    [['04', t.unknownAi('04')]],
  ],
  [
    'unknown (428) up to the separator',
    `]C101${GTIN}428XYZ${GS}10L1`,
    { batch: 'L1' },
    [['428', t.unknownAi('428')]],
  ],
  [
    'unknown (8015) up to the separator',
    `]C101${GTIN}8015A${GS}17271231`,
    { expiry: '2027-12-31' },
    [['8015', t.unknownAi('8015')]],
  ],
  ['unknown (55…) last', `]d201${GTIN}99ABC${GS}55X`, { gtin: GTIN }, [['55', t.unknownAi('55')]]],
  ['unknown AI in brackets', `(01)${GTIN}(55)X(10)L1`, { batch: 'L1' }, [['55', t.unknownAi('55')]]],
  [
    'unknown AI in a link query',
    `${DL}/01/${GTIN_DL}?55=X&10=L1`,
    { batch: 'L1' },
    [['55', t.unknownAi('55')]],
  ],
  // ── fields broken: left out, named
  ['(11) month 13', `(01)${GTIN}(11)261301`, { gtin: GTIN }, [['11', t.badDate('11')]]],
  ['(11) 30 February', `(01)${GTIN}(11)260230`, { gtin: GTIN }, [['11', t.badDate('11')]]],
  ['(13) month 00', `(01)${GTIN}(13)260015`, {}, [['13', t.badDate('13')]]],
  ['(15) 29 February 2099', `(01)${GTIN}(15)990229`, { bestBefore: null }, [['15', t.badDate('15')]]],
  ['(15) 29 February 2027', `(01)${GTIN}(15)270229`, { bestBefore: null }, [['15', t.badDate('15')]]],
  ['(16) day 32', `(01)${GTIN}(16)270132`, { sellBy: null }, [['16', t.badDate('16')]]],
  ['(17) 31 April', `(01)${GTIN}(17)270431`, { expiry: null }, [['17', t.badDate('17')]]],
  ['(17) with letters', `(01)${GTIN}(17)27AB31`, {}, [['17', t.notDigits('17')]]],
  [
    '(17) cut short by a separator',
    `]C101${GTIN}172712${GS}10L1`,
    { batch: 'L1' },
    [['17', t.tooShort('17')]],
  ],
  ['(7006) day 00 is no date there (YYMMDD)', `(01)${GTIN}(7006)270100`, {}, [['7006', t.badDate('7006')]]],
  [
    '(7250) 30 February (YYYYMMDD)',
    '(8018)952123456789012345(7250)20270230',
    {},
    [['7250', t.badDate('7250')]],
  ],
  ['(7003) 24:00', `(01)${GTIN}(7003)2712312400`, {}, [['7003', t.badTime('7003')]]],
  ['(8008) hour 25', `(01)${GTIN}(8008)26112325`, {}, [['8008', t.badTime('8008')]]],
  [
    '(410) GLN check digit: the SSCC still read',
    `(00)${SSCC}(410)4012345000008`,
    { sscc: SSCC },
    [['410', t.checkDigit('410')]],
  ],
  ['(411) GLN check digit', `(00)${SSCC}(411)4012345000008`, { sscc: SSCC }, [['411', t.checkDigit('411')]]],
  ['(412) GLN check digit', `(01)${GTIN}(412)4012345000008`, { gtin: GTIN }, [['412', t.checkDigit('412')]]],
  ['(413) GLN check digit', `(00)${SSCC}(413)4012345000008`, {}, [['413', t.checkDigit('413')]]],
  ['(416) GLN check digit', `(01)${GTIN}(416)4012345000008`, {}, [['416', t.checkDigit('416')]]],
  ['(10) 21 characters', `(01)${GTIN}(10)${'A'.repeat(21)}`, { batch: null }, [['10', t.tooLong('10')]]],
  [
    '(10) ran into the date (separator lost)',
    `]d201${GTIN}10L1234567890171227123117271231`,
    { gtin: GTIN, batch: null },
    [['10', t.tooLong('10')]],
  ],
  ['(10) with a space', `(01)${GTIN}(10)A B`, { batch: null }, [['10', t.badCharacters('10')]]],
  ['(10) with #', `]d201${GTIN}10A#1`, {}, [['10', t.badCharacters('10')]]],
  ['(10) with @', `]d201${GTIN}10A@1`, {}, [['10', t.badCharacters('10')]]],
  ['(10) with ä', `]d201${GTIN}10Bä`, {}, [['10', t.badCharacters('10')]]],
  ['(10) with ^', `]d201${GTIN}10A^`, {}, [['10', t.badCharacters('10')]]],
  ['(21) with ~', `]d201${GTIN}21S~1`, {}, [['21', t.badCharacters('21')]]],
  ['(21) with $', `]d201${GTIN}21S$1`, {}, [['21', t.badCharacters('21')]]],
  ['(8030) + is not base64url', `]d200${SSCC}8030Ab+c`, { sscc: SSCC }, [['8030', t.badCharacters('8030')]]],
  ['(99) 91 characters', `]d201${GTIN}99${'X'.repeat(91)}`, { gtin: GTIN }, [['99', t.tooLong('99')]]],
  ['(91) 91 characters', `(01)${GTIN}(91)${'X'.repeat(91)}`, { gtin: GTIN }, [['91', t.tooLong('91')]]],
  ['(90) 31 characters', `(01)${GTIN}(90)${'X'.repeat(31)}`, { gtin: GTIN }, [['90', t.tooLong('90')]]],
  ['(99) empty', `(01)${GTIN}(99)`, { gtin: GTIN }, [['99', t.empty('99')]]],
  ['(30) with letters', `(01)${GTIN}(30)zwölf`, { count: null }, [['30', t.notDigits('30')]]],
  ['(37) nine digits', `(00)${SSCC}(02)${GTIN}(37)123456789`, { count: null }, [['37', t.tooLong('37')]]],
  ['(422) two digits', `(01)${GTIN}(422)27`, {}, [['422', t.tooShort('422')]]],
  [
    '(423) four digits: an optional part must be whole',
    `(01)${GTIN}(423)2760`,
    {},
    [['423', t.tooShort('423')]],
  ],
  ['(4321) yes/no is 0 or 1', `(00)${SSCC}(4321)2`, {}, [['4321', t.badValue('4321')]]],
  ['(8001) a zero width', `(01)${GTIN}(8001)00000123400510`, {}, [['8001', t.badValue('8001')]]],
  ['(4309) latitude beyond 90°', `(00)${SSCC}(4309)18000000010500000000`, {}, [['4309', t.badValue('4309')]]],
  [
    '(8007) IBAN check',
    `(415)${GLN}(8020)R1(8007)DE89370400440532013001`,
    {},
    [['8007', t.badValue('8007')]],
  ],
  ['(7258) 3/2', '(8018)952123456789012345(7259)B(7258)3/2', {}, [['7258', t.badValue('7258')]]],
  // ── pairing rules
  ['(02) without (37)', `(02)${GTIN}(10)L1`, { gtin: GTIN, batch: 'L1' }, [['02', t.needs('02', [['37']])]]],
  [
    '(37) without (00): told, the count still read',
    `(02)${GTIN}(37)12`,
    { count: 12 },
    [['37', t.needs('37', [['00']])]],
  ],
  [
    '(10) without a key',
    `(00)${SSCC}(10)L1`,
    { sscc: SSCC, batch: 'L1' },
    [['10', t.needs('10', [['01'], ['02'], ['03'], ['8006'], ['8026']])]],
  ],
  ['(8020) without (415)', `(00)${SSCC}(8020)R1`, {}, [['8020', t.needs('8020', [['415']])]]],
  ['(7004) needs (01) and (10)', `(01)${GTIN}(7004)50`, {}, [['7004', t.needs('7004', [['01', '10']])]]],
  [
    '(3922) price needs a count or a measure',
    `(01)${GTIN}(3922)1299`,
    { gtin: GTIN },
    [['3922', t.needs('3922', [['30'], ['31nn'], ['32nn'], ['35nn'], ['36nn']])]],
  ],
  [
    '(01) with (37): the count left out',
    `(01)${GTIN}(37)12`,
    { gtin: GTIN, count: null },
    [['37', t.notWith('37', '01')]],
  ],
  [
    '(21) with (235): both left out',
    `(01)${GTIN}(21)S1(235)T1`,
    { gtin: GTIN },
    [
      ['21', t.notWith('21', '235')],
      ['235', t.notWith('235', '21')],
    ],
  ],
  [
    '(3100) with (3102): both left out',
    `(01)${GTIN}(3100)000123(3102)001230`,
    { elements: [{ ai: '01', value: GTIN }] },
    [
      ['3100', t.notWith('3100', '3102')],
      ['3102', t.notWith('3102', '3100')],
    ],
  ],
  ['(10) twice with different values', `(01)${GTIN}(10)A(10)B`, { batch: null }, [['10', t.twice('10')]]],
  [
    '(15) twice: no MHD',
    `(01)${GTIN}(15)271231(15)271130`,
    { mhd: null, mhdFrom: '15' },
    [['15', t.twice('15')]],
  ],
  [
    '(10) once broken, once fine: neither',
    `(01)${GTIN}(10)A B(10)AB`,
    { batch: null },
    [['10', t.badCharacters('10')]],
  ],
  // ── MHD: the first date the label carries decides, also when it is broken
  [
    'MHD: broken (15) is not replaced by (17)',
    `(01)${GTIN}(15)271340(17)271231`,
    { mhd: null, mhdFrom: '15', expiry: '2027-12-31' },
    [['15', t.badDate('15')]],
  ],
  // ── Digital Link: values, order of qualifiers, attributes
  [
    'link: a 21-character lot',
    `${DL}/01/${GTIN_DL}/10/${'A'.repeat(21)}`,
    { gtin: GTIN_DL, batch: null },
    [['10', t.tooLong('10')]],
  ],
  ['link: empty ?99=', `${DL}/01/${GTIN_DL}?99=`, { gtin: GTIN_DL }, [['99', t.empty('99')]]],
  [
    'link: ?99= with 91 characters',
    `${DL}/01/${GTIN_DL}?99=${'X'.repeat(91)}`,
    { gtin: GTIN_DL },
    [['99', t.tooLong('99')]],
  ],
  [
    'link: ?15=990229',
    `${DL}/01/${GTIN_DL}?15=990229`,
    { mhd: null, mhdFrom: '15' },
    [['15', t.badDate('15')]],
  ],
  [
    'link: a space in the lot',
    `${DL}/01/${GTIN_DL}?10=A%20B`,
    { batch: null },
    [['10', t.badCharacters('10')]],
  ],
  ['link: (10) after (21)', `${DL}/01/${GTIN_DL}/21/S1/10/L1`, { batch: null }, [['10', t.misplaced('10')]]],
  [
    'link: (22) and (235) mixed',
    `${DL}/01/${GTIN_DL}/22/C1/235/T1`,
    { gtin: GTIN_DL },
    [['235', t.misplaced('235')]],
  ],
  [
    'link: an SSCC takes no qualifier',
    `${DL}/00/${SSCC}/10/L1`,
    { sscc: SSCC, batch: null },
    [['10', t.misplaced('10')]],
  ],
  [
    'link: a date in the path',
    `${DL}/01/${GTIN_DL}/17/271231`,
    { expiry: null },
    [['17', t.misplaced('17')]],
  ],
  ['link: (21) is no attribute', `${DL}/01/${GTIN_DL}?21=S1`, { gtin: GTIN_DL }, [['21', t.misplaced('21')]]],
  [
    'link: an unknown AI in the path, named, the qualifier after it read',
    `${DL}/01/${GTIN_DL}/55/X/10/L1`,
    { gtin: GTIN_DL, batch: 'L1' },
    [['55', t.unknownAi('55')]],
  ],
  [
    'link: an unknown 4-digit AI last in the path',
    `${DL}/00/${SSCC}/9999/X`,
    { sscc: SSCC },
    [['9999', t.unknownAi('9999')]],
  ],
];

/** Not GS1: the caller uses the text as scanned. */
const notGs1: [string, string][] = [
  ['an EAN-13', '4006381333931'],
  ['a GTIN-14 without AI', GTIN],
  ['an article number', '100001'],
  ['a location', 'A-01-01-01'],
  ['a load carrier', 'LHM000001'],
  ['a manufacturer number', 'HN-DUP'],
  ['a delivery note', 'LS100001'],
  ['unmarked digits with a wrong check digit', '0104006381333932'],
  ['unmarked digits with an unknown AI', `01${GTIN}5512`],
  ['unmarked digits with a broken date', `01${GTIN}17271340`],
  ['some other web address', 'https://example.com/produkte/kugelschreiber'],
  ['a web address with a qualifier but no key', 'https://example.com/10/ABC'],
  ['plain Code 128 behind ]C0', ']C0LS100001'],
  ['plain QR text behind ]Q1', ']Q1A-01-01-01'],
  ['a bracket that is no AI', '(A-01) Regal'],
];

describe('GS1 codes: read cleanly', () => {
  it.each(clean)('%s', (_, scan, data) => {
    const result = read(scan);
    expect(result).toMatchObject({ kind: 'gs1', data: { ...data, problems: [] } });
  });
});

describe('GS1 codes: refused as a whole', () => {
  it.each(refused)('%s', (_, scan, message) => {
    expect(read(scan)).toEqual({ kind: 'invalid', message });
  });
});

describe('GS1 codes: what cannot be read is named, the rest used', () => {
  it.each(partial)('%s', (_, scan, data, problems) => {
    const result = read(scan);
    expect(result).toMatchObject({ kind: 'gs1', data });
    const got = result.kind === 'gs1' ? result.data : null;
    expect(got?.problems.map((p) => [p.ai, p.message])).toEqual(problems);
    for (const [ai] of problems.filter(([, message]) => !message.includes('braucht')))
      expect(got?.elements.some((e) => e.ai === ai)).toBe(false);
  });
});

describe('not GS1 at all', () => {
  it.each(notGs1)('%s', (_, scan) => {
    expect(read(scan)).toEqual({ kind: 'none' });
  });
});

describe('GS1 codes as scanners send them', () => {
  it('reads a GS1 DataMatrix (UDI label) with its symbology identifier and group separators', () => {
    const scan = `]d20108806388269617112302141728021310230214A3263-01${GS}21059${GS}240ARO4808C`;
    const result = read(scan);
    expect(result).toMatchObject({
      kind: 'gs1',
      data: {
        elements: [
          { ai: '01', value: '08806388269617' },
          { ai: '11', value: '230214' },
          { ai: '17', value: '280213' },
          { ai: '10', value: '230214A3263-01' },
          { ai: '21', value: '059' },
          { ai: '240', value: 'ARO4808C' },
        ],
        problems: [],
        gtin: '08806388269617',
        batch: '230214A3263-01',
        expiry: '2028-02-13',
        mhd: '2028-02-13',
      },
    });
  });

  it('reads the same label the same way in all three forms', () => {
    const forms = [
      `]d201${GTIN_DL}10L-7${GS}15271231${GS}3103000250`,
      `(01)${GTIN_DL}(10)L-7(15)271231(3103)000250`,
      `${DL}/01/${GTIN_DL}/10/L-7?15=271231&3103=000250`,
    ].map(read);
    expect(forms[1]).toEqual(forms[0]);
    expect(forms[2]).toEqual(forms[0]);
  });

  it('keeps the order of the label and every problem once per field', () => {
    const result = read(`]C101${GTIN}55X${GS}10A B${GS}10C D${GS}17271340`);
    expect(result.kind === 'gs1' && result.data.problems.map((p) => p.ai)).toEqual(['55', '10', '17']);
  });
});

describe('GS1 helpers', () => {
  it('checks mod-10 check digits of GTINs and SSCCs', () => {
    expect(validCheckDigit('4006381333931')).toBe(true);
    expect(validCheckDigit('04006381333931')).toBe(true);
    expect(validCheckDigit('106141411234567897')).toBe(true);
    expect(validCheckDigit('96385074')).toBe(true); // GTIN-8
    expect(validCheckDigit('4006381333932')).toBe(false);
    expect(validCheckDigit('40063')).toBe(false);
  });

  it('dates YYMMDD with GS1 sliding century window', () => {
    expect(isoDate('260229', today)).toBeNull(); // 2026 is no leap year
    expect(isoDate('280200', today)).toBe('2028-02-29');
    expect(isoDate('761231', today)).toBe('2076-12-31'); // 50 years ahead: still this century
    expect(isoDate('771231', today)).toBe('1977-12-31'); // 51 ahead: the last one
    expect(isoDate('991301', today)).toBeNull();
  });
});
