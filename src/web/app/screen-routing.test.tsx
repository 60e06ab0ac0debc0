// @vitest-environment jsdom
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A scan right after a tap on a menu entry (DESIGN §8): the app's router and its place for a screen's code
 * (`AppRouter`, `ScreenCode`) with a menu and a screen whose code comes when the test says. The scanner's
 * first key comes in the task after the tap — as a scanner's does when the worker scans at once — the next
 * ones 5 ms apart. Under React Router's default (the navigation as a transition) React rendered the tap in a
 * later task: the first keys found the menu and were refused ('hier wird nichts gescannt'), the rest went
 * into the screen's field.
 *
 * Time is faked, React's scheduler included (it keeps the setImmediate it finds when loaded), so the order
 * of the tap's render and the keys is the same on every machine.
 */
vi.useFakeTimers({
  toFake: [
    'setTimeout',
    'clearTimeout',
    'setImmediate',
    'clearImmediate',
    'Date',
    'performance',
    'requestAnimationFrame',
    'cancelAnimationFrame',
  ],
});

/** MessageChannel on the faked clock (the app's afterNextPaint posts on one). */
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
class FakeChannel {
  port1 = new FakePort();
  port2 = new FakePort();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}
vi.stubGlobal('MessageChannel', FakeChannel);

const React = await import('react');
const { createRoot } = await import('react-dom/client');
const { Link, Route, Routes } = await import('react-router');
const { installScanRouter, SCAN_ATTRIBUTE } = await import('../scan/router.ts');
const { useScanTarget } = await import('../scan/use-scan-target.ts');
const { afterNextPaint } = await import('../ui/after-paint.ts');
const { coreTexts } = await import('../../contract/texts-core.ts');
const { AppRouter, ScreenCode } = await import('./screen-routing.tsx');

const scanRouter = installScanRouter(window, true);
/** What the banner showed. */
const shown: string[] = [];
/** What the screen's field got at its Enter. */
const got: string[] = [];

/** A screen whose first field takes the scan (as Inventur's Lagerplatz). */
function LocationScreen() {
  const field = React.useRef<HTMLInputElement>(null);
  useScanTarget({ kind: 'field', label: 'Lagerplatz', input: () => field.current });
  return (
    <input
      ref={field}
      aria-label="Lagerplatz"
      {...{ [SCAN_ATTRIBUTE]: 'scan' }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        got.push(`Lagerplatz ${event.currentTarget.value}`);
        event.currentTarget.value = '';
      }}
    />
  );
}
const NEW_FIRST = 'bitte zuerst „Neu“ antippen.';
/** A screen that takes no scan until 'Neu' is tapped (as Zollpaket). */
function NewFirstScreen() {
  useScanTarget({ kind: 'none', expects: NEW_FIRST });
  return <button type="button">Neu</button>;
}

/** The screen's code: comes when `arrive` is called. */
function screenCode(Screen: React.ComponentType) {
  let arrive = () => {};
  const loaded = new Promise<{ default: React.ComponentType }>((resolve) => {
    arrive = () => resolve({ default: Screen });
  });
  return { Lazy: React.lazy(() => loaded), arrive };
}

let root: ReturnType<typeof createRoot> | null = null;

/** The app's router with the main menu open: one entry, for the screen `Screen`. */
async function menuOpen(Screen: React.ComponentType): Promise<HTMLAnchorElement> {
  window.history.replaceState(null, '', '/');
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  root.render(
    <AppRouter>
      <Routes>
        <Route path="/" element={<Link to="/screen">Screen</Link>} />
        <Route
          path="/screen"
          element={
            <ScreenCode>
              <Screen />
            </ScreenCode>
          }
        />
      </Routes>
    </AppRouter>,
  );
  await vi.advanceTimersByTimeAsync(50);
  const entry = host.querySelector('a');
  if (!entry) throw new Error('the menu is not there');
  return entry;
}

/** A key as the browser takes it: the keydown (the router's listener first), then its default action. */
function press(key: string): void {
  const on = (document.activeElement as HTMLElement | null) ?? document.body;
  const down = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  Object.defineProperty(down, 'timeStamp', { value: performance.now() });
  if (!on.dispatchEvent(down) || !(on instanceof HTMLInputElement) || key.length !== 1) return;
  on.setRangeText(key, on.selectionStart ?? on.value.length, on.selectionEnd ?? on.value.length, 'end');
  on.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * The worker taps the entry and scans at once: the tap's task, then the scanner's first key in the task
 * right after it (the promise's callbacks of the tap have run, no timer yet), the next ones 5 ms apart.
 */
async function tapAndScan(entry: HTMLAnchorElement, code: string): Promise<void> {
  entry.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
  await Promise.resolve();
  for (const key of [...code, 'Enter']) {
    press(key);
    await vi.advanceTimersByTimeAsync(5);
  }
}

beforeEach(() => {
  shown.length = 0;
  got.length = 0;
  scanRouter.configure({
    show: (message) => shown.push(message),
    texts: coreTexts.scan,
    afterPaint: (go) => afterNextPaint(() => go()),
  });
});
afterEach(async () => {
  root?.unmount();
  root = null;
  document.body.replaceChildren();
  await vi.advanceTimersByTimeAsync(1000);
});
afterAll(() => {
  scanRouter.remove();
  vi.useRealTimers();
});

describe('a scan right after a tap on a menu entry', () => {
  it("waits while the screen's code loads and goes whole into its first field", async () => {
    const code = screenCode(LocationScreen);
    await tapAndScan(await menuOpen(code.Lazy), 'A-01-01-01');
    expect(document.body.textContent).toContain(coreTexts.app.loading);
    await vi.advanceTimersByTimeAsync(1000);
    code.arrive();
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).toEqual([]);
    expect(got).toEqual(['Lagerplatz A-01-01-01']);
  });

  it('goes whole into the first field of a screen whose code is loaded already', async () => {
    const code = screenCode(LocationScreen);
    code.arrive();
    await tapAndScan(await menuOpen(code.Lazy), 'A-01-01-01');
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).toEqual([]);
    expect(got).toEqual(['Lagerplatz A-01-01-01']);
  });

  it('is refused whole, once, with what the screen expects where it takes no scan', async () => {
    const code = screenCode(NewFirstScreen);
    await tapAndScan(await menuOpen(code.Lazy), 'ZW04');
    await vi.advanceTimersByTimeAsync(1000);
    code.arrive();
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).toEqual([coreTexts.scan.refused(NEW_FIRST)]);
  });
});
