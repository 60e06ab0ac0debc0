import path from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Draws the demo pictures (cartons by id, carriers by name) in Chromium and saves them as JPEG under
 * assets/images/. Run once after changing the demo cartons: `npx tsx scripts/make-images.ts`. The files are
 * committed; the server serves them at /images/….
 */
const root = path.resolve(import.meta.dirname, '..');
const cartons = [
  { id: 1, name: 'Karton S', w: 200, d: 150, h: 100 },
  { id: 2, name: 'Karton M', w: 300, d: 200, h: 200 },
  { id: 3, name: 'Karton L', w: 400, d: 300, h: 300 },
  { id: 4, name: 'Versandtasche', w: 250, d: 350, h: 20 },
  { id: 5, name: 'Karton XL', w: 600, d: 400, h: 400 },
  { id: 6, name: 'Palette halb', w: 800, d: 600, h: 1000 },
];
const carriers = [
  { name: 'dhl', label: 'DHL', bg: '#ffcc00', fg: '#d40511' },
  { name: 'gls', label: 'GLS', bg: '#061ab1', fg: '#ffd100' },
  { name: 'dpd', label: 'DPD', bg: '#dc0032', fg: '#ffffff' },
  { name: 'ups', label: 'UPS', bg: '#351c15', fg: '#ffb500' },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 320, height: 240 } });
for (const c of cartons) {
  const scale = 120 / Math.max(c.w, c.d, c.h);
  const [w, d, h] = [c.w * scale, c.d * scale * 0.5, Math.max(c.h * scale, 6)];
  await page.setContent(`<body style="margin:0;background:#fff;font-family:sans-serif">
    <svg width="320" height="240" xmlns="http://www.w3.org/2000/svg">
      <g transform="translate(${160 - (w + d) / 2}, ${150 - h / 2})">
        <polygon points="0,${d} ${w},${d} ${w},${d + h} 0,${d + h}" fill="#c8a165" stroke="#6b4f2a" stroke-width="2"/>
        <polygon points="0,${d} ${d},0 ${w + d},0 ${w},${d}" fill="#dcb77c" stroke="#6b4f2a" stroke-width="2"/>
        <polygon points="${w},${d} ${w + d},0 ${w + d},${h} ${w},${d + h}" fill="#a9834c" stroke="#6b4f2a" stroke-width="2"/>
      </g>
      <text x="160" y="28" font-size="22" font-weight="700" text-anchor="middle" fill="#222">${c.name}</text>
      <text x="160" y="228" font-size="16" text-anchor="middle" fill="#444">${c.w} × ${c.d} × ${c.h} mm</text>
    </svg></body>`);
  await page.screenshot({
    path: path.join(root, `assets/images/kartonagen/${c.id}.jpg`),
    type: 'jpeg',
    quality: 80,
  });
}
for (const c of carriers) {
  await page.setContent(`<body style="margin:0;background:${c.bg};display:flex;align-items:center;justify-content:center;height:240px;font-family:sans-serif">
    <span style="color:${c.fg};font-size:96px;font-weight:900;letter-spacing:4px">${c.label}</span></body>`);
  await page.screenshot({
    path: path.join(root, `assets/images/carrier/${c.name}.jpg`),
    type: 'jpeg',
    quality: 80,
  });
}
await browser.close();
console.log(`Wrote ${cartons.length} carton and ${carriers.length} carrier images to assets/images/.`);
