import { GROUP_SEPARATOR } from '../../contract/limits.ts';

/**
 * How this device's scanner frames a code (issue 8): some add a fixed prefix or suffix to every scan, and a
 * keyboard wedge cannot always type the GS1 group separator (ASCII 29) — it sends some other character or
 * text for it. Set on the settings screen; every scan field reads the code through `normalizeScan`.
 */
export interface ScanSettings {
  prefix: string;
  suffix: string;
  /** What the wedge types for the group separator ('' when it sends ASCII 29 itself). */
  groupSeparatorAs: string;
  /** The same code again in the same field within this many ms is the scanner reading twice (0: off). */
  doubleReadMs: number;
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = {
  prefix: '',
  suffix: '',
  groupSeparatorAs: '',
  doubleReadMs: 300,
};

let settings: ScanSettings = DEFAULT_SCAN_SETTINGS;

export function setScanSettings(next: ScanSettings): void {
  settings = next;
}

export function doubleReadWindowMs(): number {
  return settings.doubleReadMs;
}

/** The code as the app reads it: prefix and suffix off, the wedge's group separator back to ASCII 29. */
export function normalizeScan(
  text: string,
  with_: Pick<ScanSettings, 'prefix' | 'suffix' | 'groupSeparatorAs'> = settings,
): string {
  let code = text;
  if (with_.prefix && code.startsWith(with_.prefix)) code = code.slice(with_.prefix.length);
  if (with_.suffix && code.endsWith(with_.suffix)) code = code.slice(0, code.length - with_.suffix.length);
  if (with_.groupSeparatorAs) code = code.split(with_.groupSeparatorAs).join(GROUP_SEPARATOR);
  return code.trim();
}
