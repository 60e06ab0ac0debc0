// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Scans while an answer is on its way (issue 36), as a seeded random run: a screen made of the app's own
 * ScanField and AmountField (a location looked up, an article taken at once, an amount that is typed, a
 * target location that books), answers held 0–4 s, bursts of two to four scans 0–600 ms apart. Each scan
 * must land whole where the screen expected it when its turn came — never lost, never two in one field,
 * never a scan's tail in the amount — or be refused out loud; the expectation is the same screen taking
 * the scans one by one (`expectedLog`).
 *
 * Time is faked (the keys' time stamps, the answers, React's scheduler, the paint the router waits for), so
 * a thousand sequences take seconds and a failure is the same on every machine: its seed is in the test's
 * name. React is loaded after the clock is faked: its scheduler keeps the setImmediate it finds.
 */
vi.useFakeTimers({
  toFake: [
    'setTimeout',
    'clearTimeout',
    'setImmediate',
    'clearImmediate',
    'setInterval',
    'clearInterval',
    'Date',
    'performance',
    'requestAnimationFrame',
    'cancelAnimationFrame',
  ],
});

/** MessageChannel on the faked clock (the app's afterNextPaint posts on one; React's scheduler would too). */
class FakeChannel {
  port1: FakePort;
  port2: FakePort;
  constructor() {
    this.port1 = new FakePort();
    this.port2 = new FakePort();
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}
class FakePort {
  other: FakePort | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  private closed = false;
  postMessage(data: unknown): void {
    const to = this.other;
    setTimeout(() => {
      if (to && !to.closed) to.onmessage?.({ data });
    }, 0);
  }
  close(): void {
    this.closed = true;
  }
}
vi.stubGlobal('MessageChannel', FakeChannel);

const React = await import('react');
const { createRoot } = await import('react-dom/client');
const { installScanRouter, holdKeysUntil } = await import('../scan/router.ts');
const { ScanField } = await import('./scan-field.tsx');
const { AmountField } = await import('./amount-field.tsx');
const { BannerProvider } = await import('./banner.tsx');
const { afterNextPaint } = await import('./after-paint.ts');
const { setScanSettings, DEFAULT_SCAN_SETTINGS } = await import('./scan-settings.ts');
const { coreTexts } = await import('../../contract/texts-core.ts');
/** The router as the app installs it (main.tsx), configured per sequence as the app's ScanRouting does. */
const scanRouter = installScanRouter(window, true);

type Step = 'location' | 'article' | 'amount' | 'target';
type Entry = string;

const LOCATION = /^[A-Z]-\d\d-\d\d-\d\d$/;
const ARTICLE = /^\d{6}$/;
/** This article's amount is asked (typed, never scanned); the others go straight to the target. */
const ASKS_AMOUNT = '100003';

/** What a screen that takes the scans one at a time records: the same rules as WalkScreen below. */
function expectedLog(codes: string[]): Entry[] {
  const log: Entry[] = [];
  let step: Step = 'location';
  for (const code of codes) {
    if (step === 'location') {
      log.push(`Lagerplatz ${code}`);
      if (LOCATION.test(code)) step = 'article';
    } else if (step === 'article') {
      log.push(`Artikel ${code}`);
      if (ARTICLE.test(code)) step = code === ASKS_AMOUNT ? 'amount' : 'target';
    } else if (step === 'amount') {
      log.push(
        /^\d+$/.test(code)
          ? coreTexts.scan.refused(coreTexts.scan.typeIn('Menge'))
          : coreTexts.scan.refused(coreTexts.scan.digitsOnly('Menge')),
      );
    } else {
      log.push(`Ziel ${code}`);
      if (LOCATION.test(code)) step = 'location';
    }
  }
  return log;
}

/**
 * A receiving screen in small: the location looked up (its answer `delay` ms late), the article taken at
 * once (as Wareneingang's is, from the receipt on screen), its amount asked for one article, the target
 * location booking (`delay` ms, the next keys held until the form it leads to is painted, as useBooking).
 */
function WalkScreen({ delay, log }: { delay: number; log: Entry[] }) {
  const [step, setStep] = React.useState<Step>('location');
  const [typed, setTyped] = React.useState({ location: '', article: '', target: '' });
  const [amount, setAmount] = React.useState('');
  const text = (field: keyof typeof typed) => ({
    value: typed[field],
    onChange: (value: string) => setTyped((t) => ({ ...t, [field]: value })),
  });
  const clear = (field: keyof typeof typed) => setTyped((t) => ({ ...t, [field]: '' }));
  const answer = () => new Promise<void>((resolve) => setTimeout(resolve, delay));
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <ScanField
        label="Lagerplatz"
        current={step === 'location'}
        {...text('location')}
        onScan={async (code) => {
          clear('location');
          log.push(`Lagerplatz ${code}`);
          await answer();
          if (LOCATION.test(code)) setStep('article');
        }}
      />
      <ScanField
        label="Artikel"
        current={step === 'article'}
        {...text('article')}
        onScan={(code) => {
          clear('article');
          log.push(`Artikel ${code}`);
          if (ARTICLE.test(code)) setStep(code === ASKS_AMOUNT ? 'amount' : 'target');
        }}
      />
      <AmountField id="menge" label="Menge" value={amount} onChange={setAmount} current={step === 'amount'} />
      <ScanField
        label="Ziel"
        current={step === 'target'}
        {...text('target')}
        onScan={(code) => {
          clear('target');
          log.push(`Ziel ${code}`);
          const booked = answer().then(() => {
            if (LOCATION.test(code)) setStep('location');
          });
          holdKeysUntil(booked, afterNextPaint);
          return booked;
        }}
      />
    </form>
  );
}

/** A key as the browser takes it: the keydown (the router's listener first), then its default action. */
function press(key: string): void {
  const target = (document.activeElement as HTMLElement | null) ?? document.body;
  const down = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  if (!target.dispatchEvent(down)) return;
  if (!(target instanceof HTMLInputElement) || target.disabled) return;
  if (key.length === 1) {
    const before = new InputEvent('beforeinput', {
      inputType: 'insertText',
      data: key,
      bubbles: true,
      cancelable: true,
    });
    if (!target.dispatchEvent(before)) return;
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? target.value.length;
    target.setRangeText(key, start, end, 'end');
    target.dispatchEvent(new Event('input', { bubbles: true }));
  } else if (key === 'Enter') {
    target.form?.requestSubmit();
  }
}

/** A keyboard wedge: the code's keys 2 ms apart, then Enter. */
async function wedge(code: string): Promise<void> {
  for (const key of code) {
    press(key);
    await vi.advanceTimersByTimeAsync(2);
  }
  press('Enter');
}

/** A small seeded generator (mulberry32): the same seed, the same sequences. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CODES = ['A-01-01-01', 'B-02-01-01', '100001', ASKS_AMOUNT, '100007', 'LS100001', 'KW01-3'];
const DELAYS = [0, 300, 1500, 4000];
const GAPS = [0, 100, 400, 600];

interface Sequence {
  delay: number;
  scans: { gap: number; code: string }[];
}

function sequence(next: () => number): Sequence {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const count = 2 + Math.floor(next() * 5);
  return {
    delay: pick(DELAYS),
    scans: Array.from({ length: count }, () => ({ gap: pick(GAPS), code: pick(CODES) })),
  };
}

async function run(seq: Sequence): Promise<{ log: Entry[]; fields: string[] }> {
  const log: Entry[] = [];
  scanRouter.configure({
    show: (message) => log.push(message),
    texts: coreTexts.scan,
    afterPaint: (go) => afterNextPaint(() => go()),
  });
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  root.render(
    <BannerProvider>
      <WalkScreen delay={seq.delay} log={log} />
    </BannerProvider>,
  );
  await vi.advanceTimersByTimeAsync(50);
  for (const { gap, code } of seq.scans) {
    await vi.advanceTimersByTimeAsync(gap);
    await wedge(code);
  }
  await vi.advanceTimersByTimeAsync(seq.scans.length * (seq.delay + 500) + 1000);
  const fields = [...host.querySelectorAll('input')].map((i) => i.value);
  root.unmount();
  host.remove();
  // The next sequence starts with no key of this one held, collected or being typed out.
  await vi.advanceTimersByTimeAsync(1000);
  return { log, fields };
}

describe('scans while an answer is on its way (seeded random run)', () => {
  beforeAll(() => {
    // The same code twice in a row is a scan of its own here, not the scanner reading twice.
    setScanSettings({ ...DEFAULT_SCAN_SETTINGS, doubleReadMs: 0 });
  });
  afterAll(() => {
    scanRouter.remove();
    setScanSettings(DEFAULT_SCAN_SETTINGS);
    vi.useRealTimers();
  });

  const SEEDS = 1000;
  it(`${SEEDS} sequences: every scan lands whole where the screen expects it, in order, or is refused`, async () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const seq = sequence(random(seed));
      const { log, fields } = await run(seq);
      const expected = expectedLog(seq.scans.map((s) => s.code));
      const leftover = fields.filter((f) => f !== '' && !/^\d{1,3}$/.test(f));
      if (JSON.stringify(log) !== JSON.stringify(expected) || leftover.length > 0) {
        failures.push(
          `seed ${seed}: answers ${seq.delay} ms, scans ${seq.scans.map((s) => `+${s.gap} ms ${s.code}`).join(', ')}\n` +
            `  got      ${JSON.stringify(log)}\n  expected ${JSON.stringify(expected)}` +
            (leftover.length > 0 ? `\n  left in a field: ${JSON.stringify(leftover)}` : ''),
        );
        if (failures.length >= 5) break;
      }
    }
    expect(failures.join('\n')).toBe('');
  }, 120_000);
});
