import { describe, expect, it } from 'vitest';
import { barsFromMarkdown, chartSvg } from '../../bench/chart.ts';

describe('the bench chart', () => {
  const table = [
    '| what | database | figure | goal | result |',
    '|---|---|---|---|---|',
    '| HTTP floor: node:http, constant JSON | — | 24,336 req/s, p50 1.0 ms, p99 14 ms, 0 errors | — | — |',
    '| GET inventur/findlp | PostgreSQL 15 | 4,571 req/s, p50 11 ms, p99 56 ms, 0 errors; DB floor 9,085 req/s, p50 6.0 ms → 50 % of it | goal | **FAIL** |',
    '| POST umbuchung/artikel/ (1 piece, own key) | PGlite | 120 req/s, p50 1 ms; DB floor 300 req/s, p50 1 ms | 0 errors | PASS |',
  ].join('\n');

  it('draws each call beside its database floor, and nothing for rows without one', () => {
    const bars = barsFromMarkdown(table);
    expect(bars).toEqual([
      { label: 'GET inventur/findlp · PostgreSQL 15', http: 4571, floor: 9085 },
      { label: 'POST umbuchung/artikel/ · PGlite', http: 120, floor: 300 },
    ]);
    const svg = chartSvg(bars, 'Throughput <test>');
    expect(svg).toContain('Throughput &lt;test&gt;');
    expect(svg).toContain('4,571 / 9,085 (50 %)');
    expect(svg.match(/<rect /g)).toHaveLength(1 + 2 + bars.length * 2); // background, legend, two per call
  });
});
