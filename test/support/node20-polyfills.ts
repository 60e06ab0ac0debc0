/**
 * Vitest 5 prints failed tests with Map.groupBy / Object.groupBy, which Node 20 lacks (Node ≥ 21 has them):
 * without these, a failing test crashes the reporter instead of showing what failed. Imported by
 * vitest.config.ts, which runs in the main process before any reporter.
 */
type GroupBy = <K, T>(items: Iterable<T>, key: (item: T, index: number) => K) => Map<K, T[]>;

if (typeof (Map as unknown as { groupBy?: GroupBy }).groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    configurable: true,
    writable: true,
    value: <K, T>(items: Iterable<T>, key: (item: T, index: number) => K): Map<K, T[]> => {
      const groups = new Map<K, T[]>();
      let index = 0;
      for (const item of items) {
        const k = key(item, index++);
        const group = groups.get(k);
        if (group) group.push(item);
        else groups.set(k, [item]);
      }
      return groups;
    },
  });
}

if (typeof (Object as unknown as { groupBy?: unknown }).groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    configurable: true,
    writable: true,
    value: <T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) => {
      const groups: Record<PropertyKey, T[]> = Object.create(null);
      let index = 0;
      for (const item of items) {
        const k = key(item, index++);
        const group = groups[k];
        if (group) group.push(item);
        else groups[k] = [item];
      }
      return groups;
    },
  });
}

export {};
