import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { PackageContentRow } from '../../contract/paketinhalt.ts';

/**
 * The packing station's client state (SPEC §3): the delivery note being packed, its content, cartons and
 * shipping flags, shared by Paketinhalt → Kartonagen → Paketausgang. Kept in sessionStorage so a reload in
 * the middle of packing does not lose the note. `clear()` is the spec's clear action.
 */
interface PackingState {
  lieferscheinID: number;
  belegnr: string;
  packages: { id: number; amount: number }[];
  packageContent: PackageContentRow[];
  /** Scanned pieces so far (sum of pemenge). */
  count: number;
  versandart: string;
  gravurArtikel: boolean;
  /** 1 = EU, 0 = customs papers needed. */
  eu: number;
  /** Who picked the note completely before packing (Kommissionierung); null: not picked. */
  kommissioniert: { von: string; am: string } | null;
  /**
   * The line the last item scan counted (its id), for the packer to see it even when it lies below the
   * screen; null before the first scan and after an answer that changed several lines (the cheat code).
   */
  lastCountedId: number | null;
  /** Where the note is in the packing flow; null: nothing being packed. */
  step: 'inhalt' | 'kartonagen' | 'ausgang' | null;
}

const EMPTY: PackingState = {
  lieferscheinID: 0,
  belegnr: '',
  packages: [],
  packageContent: [],
  count: 0,
  versandart: '',
  gravurArtikel: false,
  eu: 1,
  kommissioniert: null,
  lastCountedId: null,
  step: null,
};

const STORAGE_KEY = 'lagerscanner.packing';

interface PackingApi {
  state: PackingState;
  /** A delivery note was looked up: start packing it. */
  start(note: {
    id: number;
    belegnr: string;
    eu: number;
    versandart: string;
    gravurArtikel: boolean;
    paketinhalt: PackageContentRow[];
    kommissioniert?: { von: string; am: string } | null;
  }): void;
  setContent(rows: PackageContentRow[]): void;
  /** Changing a carton amount updates the carton with that package id (SPEC §4). */
  setPackageAmount(id: number, amount: number): void;
  setPackages(packages: { id: number; amount: number }[]): void;
  goTo(step: PackingState['step']): void;
  clear(): void;
}

const PackingContext = createContext<PackingApi | null>(null);

/** Which note is in which step: all the page frame needs, without the lines that change at every item scan. */
type PackingStep = Pick<PackingState, 'step' | 'belegnr'>;
const PackingStepContext = createContext<PackingStep | null>(null);

function load(): PackingState {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? { ...EMPTY, ...(JSON.parse(raw) as Partial<PackingState>) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

const counted = (rows: PackageContentRow[]) => rows.reduce((sum, r) => sum + r.pemenge, 0);

/**
 * Every scan answers the whole note anew. Rows that did not change keep their old object, so the table
 * (memoised per row) draws only the line whose count changed, and React compares no more than that.
 */
export function keepUnchangedRows(
  previous: PackageContentRow[],
  next: PackageContentRow[],
): PackageContentRow[] {
  const before = new Map(previous.map((row) => [row.id, row]));
  let changed = previous.length !== next.length;
  const rows = next.map((row, index) => {
    const old = before.get(row.id);
    const same =
      old !== undefined &&
      old.pemenge === row.pemenge &&
      old.kommissioniert === row.kommissioniert &&
      old.lsmenge === row.lsmenge &&
      old.artikel_id === row.artikel_id &&
      old.nummer === row.nummer &&
      old.name_de === row.name_de &&
      old.herstellernummer === row.herstellernummer &&
      old.ean === row.ean;
    if (!same || previous[index] !== old) changed = true;
    return same ? old : row;
  });
  return changed ? rows : previous;
}

export function PackingProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<PackingState>(load);
  const update = useCallback((change: (s: PackingState) => PackingState) => setState(change), []);
  // Kept for a reload once the change is rendered: writing the whole note at every item scan (51 lines in the
  // bench's) is no longer between the scan's answer and its line on screen.
  useEffect(() => {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  }, [state]);

  // Actions keep their identity across state changes, so screens can list them as effect dependencies.
  const actions = useMemo<Omit<PackingApi, 'state'>>(
    () => ({
      start: (note) =>
        update(() => ({
          ...EMPTY,
          lieferscheinID: note.id,
          belegnr: note.belegnr,
          eu: note.eu,
          versandart: note.versandart,
          gravurArtikel: note.gravurArtikel,
          kommissioniert: note.kommissioniert ?? null,
          packageContent: note.paketinhalt,
          count: counted(note.paketinhalt),
          step: 'inhalt',
        })),
      setContent: (rows) =>
        update((s) => {
          const packageContent = keepUnchangedRows(s.packageContent, rows);
          if (packageContent === s.packageContent) return s;
          const kept = new Set(s.packageContent);
          const changed = packageContent.filter((row) => !kept.has(row));
          const lastCountedId = changed.length === 1 ? (changed[0] as PackageContentRow).id : null;
          return { ...s, packageContent, count: counted(packageContent), lastCountedId };
        }),
      setPackageAmount: (id, amount) =>
        update((s) => ({
          ...s,
          packages: s.packages.map((p) => (p.id === id ? { ...p, amount: Math.max(0, amount) } : p)),
        })),
      setPackages: (packages) => update((s) => ({ ...s, packages })),
      goTo: (step) => update((s) => ({ ...s, step })),
      clear: () => update(() => EMPTY),
    }),
    [update],
  );
  const api = useMemo<PackingApi>(() => ({ state, ...actions }), [state, actions]);
  const { step, belegnr } = state;
  const stepOnly = useMemo<PackingStep>(() => ({ step, belegnr }), [step, belegnr]);
  return (
    <PackingContext.Provider value={api}>
      <PackingStepContext.Provider value={stepOnly}>{children}</PackingStepContext.Provider>
    </PackingContext.Provider>
  );
}

export function usePacking(): PackingApi {
  const api = useContext(PackingContext);
  if (!api) throw new Error('usePacking outside PackingProvider');
  return api;
}

/**
 * The note and its step only: the page frame reads this, so it is not drawn again at every item scan (the
 * whole note's context changes with each answer).
 */
export function usePackingStep(): PackingStep {
  const step = useContext(PackingStepContext);
  if (!step) throw new Error('usePackingStep outside PackingProvider');
  return step;
}

/** A row is complete when the scanned amount equals the delivery amount. */
export const isComplete = (row: PackageContentRow) => row.pemenge >= row.lsmenge;
