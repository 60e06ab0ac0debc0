import { describe, expect, it } from 'vitest';
import type { PackageContentRow } from '../../contract/paketinhalt.ts';
import { keepUnchangedRows } from './packing.tsx';

const row = (id: number, pemenge: number): PackageContentRow => ({
  id,
  artikel_id: 100 + id,
  nummer: `10000${id}`,
  herstellernummer: null,
  name_de: `Artikel ${id}`,
  ean: null,
  lsmenge: 4,
  pemenge,
});

describe('keepUnchangedRows: a scan answers the whole note, only the changed line is new', () => {
  it('keeps the objects of unchanged lines and takes the changed one', () => {
    const before = [row(1, 0), row(2, 1), row(3, 0)];
    const after = keepUnchangedRows(before, [row(1, 0), row(2, 2), row(3, 0)]);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]?.pemenge).toBe(2);
    expect(after[2]).toBe(before[2]);
  });

  it('answers the same array when nothing changed, a new one when lines come or go or move', () => {
    const before = [row(1, 0), row(2, 1)];
    expect(keepUnchangedRows(before, [row(1, 0), row(2, 1)])).toBe(before);
    const moved = keepUnchangedRows(before, [row(2, 1), row(1, 0)]);
    expect(moved).not.toBe(before);
    expect(moved.map((r) => r.id)).toEqual([2, 1]);
    expect(keepUnchangedRows(before, [row(1, 0)])).toHaveLength(1);
    expect(keepUnchangedRows(before, [...before.map((r) => ({ ...r })), row(3, 0)])).toHaveLength(3);
  });

  it('a line whose name or EAN changed on the server is taken anew', () => {
    const before = [row(1, 0)];
    const renamed = { ...row(1, 0), name_de: 'Neu' };
    expect(keepUnchangedRows(before, [renamed])[0]).toBe(renamed);
  });
});
