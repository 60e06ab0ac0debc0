import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CsrfTokens } from './csrf.ts';

const CSRF_PLACEHOLDER = '__CSRF_TOKEN__';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached (a new version must
 * reach every scanner at the next load) and rendered with a fresh CSRF token. Any other GET outside /api
 * answers index.html, so a deep link or a reload on any screen works.
 */
/**
 * The page may load only its own scripts, styles and pictures, talk only to its own API (and the hosts an
 * operator lists), and never be framed. 'wasm-unsafe-eval' lets it compile WebAssembly (the camera's code
 * reader, served from here), not eval JavaScript.
 */
export function contentSecurityPolicy(connectSrc: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function registerWebApp(
  app: FastifyInstance,
  dirs: { webDir: string; imagesDir: string; cspConnectSrc: string[]; serveSourceMaps: boolean },
  csrf: CsrfTokens,
): Promise<void> {
  const { webDir, imagesDir } = dirs;
  const csp = contentSecurityPolicy(dirs.cspConnectSrc);
  // Carton and carrier pictures (/images/kartonagen/{id}.jpg, /images/carrier/{carrier}.jpg). Operators may
  // add files while the server runs, so they are looked up per request; @fastify/static refuses traversal.
  if (fs.existsSync(imagesDir)) {
    await app.register(fastifyStatic, {
      root: imagesDir,
      prefix: '/images/',
      decorateReply: false,
      index: false,
      setHeaders: (reply) => {
        reply.header('cache-control', 'public, max-age=3600');
      },
    });
  }

  const indexPath = path.join(webDir, 'index.html');
  const indexHtml = fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : null;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Brotli/gzip copies written at build (scripts/vite-precompress.ts), sent when the browser takes them.
      // Dot folders (the build manifest in .vite/) are not served, nor source maps unless SERVE_SOURCE_MAPS:
      // the build keeps them for reading a handheld's stack trace, but they are the app's whole source.
      preCompressed: true,
      allowedPath: (pathName) =>
        pathName !== '/index.html' && (dirs.serveSourceMaps || !isSourceMap(pathName)),
      setHeaders: (reply, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.decorate('sendIndexHtml', (reply: FastifyReply) => {
    if (!indexHtml) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache, no-store, must-revalidate')
      .header('content-security-policy', csp)
      .send(indexHtml.replace(CSRF_PLACEHOLDER, csrf.issue()));
  });
}

/** A source map's path (`/assets/index-abc123.js.map`), with or without a query. */
export const isSourceMap = (url: string) => /\.map(\?|$)/.test(url);

declare module 'fastify' {
  interface FastifyInstance {
    sendIndexHtml(reply: FastifyReply): FastifyReply;
  }
}
