import fs from 'node:fs';

/**
 * The throughput rows of a results table (bench/results/*.md) as an SVG bar chart: per call and database
 * the server over HTTP beside its database floor, so a regression shows as a shorter dark bar.
 *
 *   npx tsx bench/chart.ts bench/results/latest.md     writes bench/results/latest.svg
 */
export interface Bar {
  label: string;
  http: number;
  floor: number;
}

const number = (text: string) => Number(text.replace(/,/g, ''));

/** Rows like `| GET inventur/findlp | PostgreSQL 15 | 4,571 req/s, … DB floor 9,085 req/s, … |`. */
export function barsFromMarkdown(markdown: string): Bar[] {
  const bars: Bar[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const [, what, db, figure] = cells;
    if (!what || !db || !figure) continue;
    const match = /^([\d,]+) req\/s.*DB floor ([\d,]+) req\/s/.exec(figure);
    if (!match?.[1] || !match[2]) continue;
    bars.push({
      label: `${what.replace(/ \(.*\)$/, '')} · ${db}`,
      http: number(match[1]),
      floor: number(match[2]),
    });
  }
  return bars;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function chartSvg(bars: Bar[], title: string): string {
  const labelWidth = 330;
  const plotWidth = 520;
  const rowHeight = 30;
  const top = 44;
  const width = labelWidth + plotWidth + 180; // room for the figures right of the longest bar
  const height = top + bars.length * rowHeight + 30;
  const max = Math.max(1, ...bars.flatMap((b) => [b.http, b.floor]));
  const x = (value: number) => (value / max) * plotWidth;
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    return [
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${xml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 2}" width="${x(bar.floor).toFixed(1)}" height="11" fill="#b8c7d9"/>`,
      `<rect x="${labelWidth}" y="${y + 14}" width="${x(bar.http).toFixed(1)}" height="11" fill="#1f4e79"/>`,
      `<text x="${labelWidth + x(Math.max(bar.http, bar.floor)) + 6}" y="${y + 20}">${bar.http.toLocaleString('en')} / ${bar.floor.toLocaleString('en')} (${Math.round((bar.http / bar.floor) * 100)} %)</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12" role="img">`,
    `<title>${xml(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="20" font-size="14" font-weight="bold">${xml(title)}</text>`,
    `<rect x="${labelWidth}" y="28" width="10" height="10" fill="#1f4e79"/><text x="${labelWidth + 14}" y="37">over HTTP (req/s)</text>`,
    `<rect x="${labelWidth + 140}" y="28" width="10" height="10" fill="#b8c7d9"/><text x="${labelWidth + 154}" y="37">database floor (req/s)</text>`,
    ...rows,
    '</svg>',
    '',
  ].join('\n');
}

/** Writes `<results>.svg` beside a results table; returns its path. */
export function writeChart(markdownPath: string): string {
  const markdown = fs.readFileSync(markdownPath, 'utf8');
  const heading = markdown.split('\n')[0]?.replace(/^#\s*/, '') ?? 'Benchmark';
  const svgPath = markdownPath.replace(/\.md$/, '.svg');
  fs.writeFileSync(svgPath, chartSvg(barsFromMarkdown(markdown), `Throughput, 64 connections — ${heading}`));
  return svgPath;
}

if (process.argv[1] && import.meta.filename === fs.realpathSync(process.argv[1])) {
  const input = process.argv[2];
  if (!input) {
    console.error('Usage: npx tsx bench/chart.ts bench/results/latest.md');
    process.exit(2);
  }
  console.log(`wrote ${writeChart(input)}`);
}
