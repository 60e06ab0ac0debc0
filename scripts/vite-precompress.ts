import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built script, style sheet, SVG and WebAssembly
 * file of at least 1 KB, at the highest levels, once at build time; the server sends them as they are
 * (@fastify/static `preCompressed`), so no scanner waits for compression and the server spends no CPU on it.
 * Brotli's level 11 takes 12 s for the camera's 1 MB .wasm here; level 9 takes 0.2 s (405 instead of 357 KB).
 */
const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest|wasm)$/;
const MIN_BYTES = 1024;
const LARGE_BYTES = 512 * 1024;

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'lagerscanner-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = fs.readFileSync(file);
        if (content.length < MIN_BYTES) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(content, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: content.length < LARGE_BYTES ? 11 : 9,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}
