// Raw HTTP on purpose: it asks for the web build's files (source maps), no calls of the contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * The web build writes a source map beside every script (IT can read a handheld's stack trace with it), but
 * the server hands them out only when SERVE_SOURCE_MAPS=true: they are the app's whole source.
 * dist/web is the real build (test/global-setup.ts makes it).
 */
const webDir = path.join(projectRoot, 'dist/web');
const assets = path.join(webDir, 'assets');

describe('source maps of the web app', () => {
  let maps: string[];
  let served: TestApp;
  let hidden: TestApp;
  let rootMapDir: string;
  let rootMap: TestApp;

  beforeAll(async () => {
    maps = fs.readdirSync(assets).filter((f) => f.endsWith('.map'));
    hidden = await startTestApp('pglite');
    served = await startTestApp('pglite', { serveSourceMaps: true });
    // A map outside assets/ must not fall through to the web app's index.html either.
    rootMapDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-web-'));
    fs.writeFileSync(path.join(rootMapDir, 'index.html'), '<!doctype html><title>Lagerscanner</title>');
    fs.writeFileSync(path.join(rootMapDir, 'sw.js'), '//# sourceMappingURL=sw.js.map');
    fs.writeFileSync(path.join(rootMapDir, 'sw.js.map'), '{"version":3}');
    rootMap = await startTestApp('pglite', { webDir: rootMapDir });
  });
  afterAll(async () => {
    await Promise.all([hidden.close(), served.close(), rootMap.close()]);
    fs.rmSync(rootMapDir, { recursive: true, force: true });
  });

  it('are written by the build, one beside each script', () => {
    expect(maps.length).toBeGreaterThan(5);
    for (const map of maps) expect(fs.existsSync(path.join(assets, map.replace(/\.map$/, '')))).toBe(true);
  });

  it('answer 404 by default, in any encoding, while their scripts are served', async () => {
    for (const map of maps) {
      for (const encoding of ['identity', 'gzip, deflate, br']) {
        const res = await hidden.app.inject({
          url: `/assets/${map}`,
          headers: { 'accept-encoding': encoding },
        });
        expect(res.statusCode, `${map} ${encoding}`).toBe(404);
        expect(res.body).not.toContain('"mappings"');
      }
      const script = await hidden.app.inject(`/assets/${map.replace(/\.map$/, '')}`);
      expect(script.statusCode, map).toBe(200);
    }
    const outside = await rootMap.app.inject('/sw.js.map');
    expect(outside.statusCode).toBe(404);
    expect(outside.body).not.toContain('"version"');
    expect((await rootMap.app.inject('/sw.js')).statusCode).toBe(200);
  });

  it('are served with SERVE_SOURCE_MAPS=true', async () => {
    const map = maps[0] ?? '';
    const res = await served.app.inject({
      url: `/assets/${map}`,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: 3, mappings: expect.any(String) });
  });
});
