import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import { chromiumArgs, chromiumExecutable } from './chromium.ts';
import { test as base } from './test.ts';

const WIDTH = 640;
const HEIGHT = 480;

/**
 * A camera for Chromium that films one label: bwip-js encodes the code (`bcid`: 'ean13', 'code128',
 * 'gs1datamatrix', …; GS1 text in brackets), drawn black on white in the middle of a 640×480 picture, written
 * as a Y4M video (a header, then raw YUV 4:2:0 frames; Chromium plays the file in a loop). Returns the launch
 * options for a browser whose getUserMedia answers with it; whether the page may use the camera is the
 * context's `permissions` (Playwright refuses what it was not given).
 */
export function launchWithCameraFilming(bcid: string, text: string) {
  const file = path.join(os.tmpdir(), `lagerscanner-camera-${bcid}-${Buffer.from(text).toString('hex')}.y4m`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, y4m(labelPicture(bcid, text)));
  return {
    executablePath: chromiumExecutable,
    args: [
      ...chromiumArgs,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
  };
}

/** Luma (0 black … 255 white) of the whole frame, the code centred in it. */
function labelPicture(bcid: string, text: string): Uint8Array {
  const [symbol] = bwipjs.raw({ bcid, text, parsefnc: true });
  if (!symbol) throw new Error(`bwip-js drew nothing for ${bcid} ${text}`);
  let modules: boolean[][]; // [row][column], true = dark
  if ('sbs' in symbol) {
    // A linear code: alternating bar and space widths, starting with a bar; 40 modules high.
    const row: boolean[] = [];
    symbol.sbs.forEach((width, i) => {
      for (let k = 0; k < width; k++) row.push(i % 2 === 0);
    });
    modules = Array.from({ length: 40 }, () => row);
  } else {
    modules = Array.from({ length: symbol.pixy }, (_, y) =>
      Array.from({ length: symbol.pixx }, (_, x) => symbol.pixs[y * symbol.pixx + x] === 1),
    );
  }
  const columns = modules[0]?.length ?? 0;
  const scale = Math.floor(Math.min((WIDTH * 0.7) / columns, (HEIGHT * 0.7) / modules.length));
  const left = Math.floor((WIDTH - columns * scale) / 2);
  const top = Math.floor((HEIGHT - modules.length * scale) / 2);
  const luma = new Uint8Array(WIDTH * HEIGHT).fill(255);
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++)
        luma.fill(
          0,
          (top + y * scale + dy) * WIDTH + left + x * scale,
          (top + y * scale + dy) * WIDTH + left + (x + 1) * scale,
        );
    });
  });
  return luma;
}

/** Two identical frames of grey-scale YUV 4:2:0 (the colour planes neutral). */
function y4m(luma: Uint8Array): Buffer {
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  return Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`),
    frame,
    frame,
  ]);
}

/**
 * A spec's `test` with a `filming` option: the label the fake camera shows ([bwip-js symbology, text]).
 * Chromium takes its fake camera at launch, so such a test gets a browser of its own (Playwright allows no
 * per-group launch options); without `filming` the usual context.
 */
export const test = base.extend<{ filming: [string, string] | null }>({
  filming: [null, { option: true }],
  context: async (
    { filming, context, playwright, baseURL, viewport, hasTouch, isMobile, locale, timezoneId, userAgent },
    use,
  ) => {
    if (!filming) return use(context);
    const browser = await playwright.chromium.launch(launchWithCameraFilming(...filming));
    const own = await browser.newContext({
      baseURL,
      viewport,
      hasTouch,
      isMobile,
      locale,
      timezoneId,
      userAgent,
      permissions: ['camera'],
    });
    await use(own);
    await browser.close();
  },
});
