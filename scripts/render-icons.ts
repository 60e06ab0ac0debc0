import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../e2e/support/chromium.ts';

/**
 * Renders the app icon (src/web/public/icon.svg) to the PNG sizes the web manifest lists. The symbol sits in
 * the middle 60 % of the square, so the same picture serves as a maskable icon (Android crops to a circle).
 * Run after changing the SVG: `tsx scripts/render-icons.ts`; the PNGs are committed.
 */
const publicDir = path.resolve(import.meta.dirname, '../src/web/public');
const svg = fs.readFileSync(path.join(publicDir, 'icon.svg'), 'utf8');

const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>*{margin:0}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    const file = path.join(publicDir, `icon-${size}.png`);
    await page.screenshot({ path: file, omitBackground: false });
    await page.close();
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
} finally {
  await browser.close();
}
