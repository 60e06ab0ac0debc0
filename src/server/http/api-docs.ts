import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { texts } from '../../contract/texts.ts';
import { projectRoot } from '../config.ts';
import { openApiDocument } from './openapi.ts';

/**
 * The API documentation: the OpenAPI document at /api/openapi.json and a viewer at /api/docs (Swagger UI from
 * the swagger-ui-dist package, served by this server: no CDN, a warehouse server may have no internet).
 * Public, like any API description: it holds no data and no secrets.
 */
export const DOCS_ROUTES = ['GET /api/openapi.json', 'GET /api/docs', 'GET /api/docs/:file'];

/**
 * The viewer's own page policy, as strict as the web app's: scripts and styles only from here (Swagger UI
 * needs no eval and no inline style sheet), icons also as data: images, calls only to this server.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ownDir = path.join(projectRoot, 'src/server/http/api-docs');

/**
 * The viewer's files by name: what to read and its content type. Nothing else under /api/docs/. A Map, not a
 * plain object: a name from the URL must never find what every object inherits (constructor, __proto__, …).
 */
const FILES = new Map<string, { file: string; type: string }>([
  ['swagger-ui.css', { file: path.join(swaggerDir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' }],
  [
    'swagger-ui-bundle.js',
    { file: path.join(swaggerDir, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  ],
  ['docs.js', { file: path.join(ownDir, 'docs.js'), type: 'text/javascript; charset=utf-8' }],
]);

export function registerApiDocs(app: FastifyInstance): void {
  const version = (
    JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const document = JSON.stringify(openApiDocument(version));
  const page = fs.readFileSync(path.join(ownDir, 'index.html'), 'utf8');
  // Read and compressed at the first request, then kept: the bundle is 1.5 MB, 0.4 MB gzipped.
  const loaded = new Map<string, { raw: Buffer; gzip: Buffer }>();

  app.get('/api/openapi.json', async (_request, reply) => reply.type('application/json').send(document));
  app.get('/api/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(page),
  );
  app.get<{ Params: { file: string } }>('/api/docs/:file', async (request, reply) => {
    const entry = FILES.get(request.params.file);
    if (!entry) return reply.code(404).send({ success: false, message: texts.errors.routeNotFound });
    let content = loaded.get(request.params.file);
    if (!content) {
      const raw = fs.readFileSync(entry.file);
      content = { raw, gzip: gzipSync(raw) };
      loaded.set(request.params.file, content);
    }
    reply.type(entry.type).header('vary', 'Accept-Encoding');
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    return acceptsGzip
      ? reply.header('content-encoding', 'gzip').send(content.gzip)
      : reply.send(content.raw);
  });
}
