import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built script, style sheet and SVG of at least
 * 1 KB, at the highest levels, once at build time; the server sends them as they are (@fastify/static
 * `preCompressed`), so no scanner waits for compression and the server spends no CPU on it.
 */
const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest)$/;
const MIN_BYTES = 1024;

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
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}
