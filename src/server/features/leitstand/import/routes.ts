import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastify from 'fastify';
import * as contract from '../../../../contract/leitstand/import.ts';
import { contractAnswer, placeOf } from '../../../http/gate.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import { registerUpload } from '../../../http/stepped-route.ts';
import * as service from './service.ts';
import { ImportUploads, type UploadBody } from './uploads.ts';

const { FST_ERR_CTP_BODY_TOO_LARGE, FST_ERR_CTP_INVALID_CONTENT_LENGTH } = fastify.errorCodes;

export function importRoutes(app: FastifyInstance, deps: Deps): void {
  const limit = deps.config.importLimitBytes;
  registerEndpoint(app, deps, contract.importKinds, async () => service.importKinds(limit));

  // The upload is no registerEndpoint call (one transaction for the whole work): its file is read in a
  // worker thread and imported in steps (uploads.ts, decision 30). Its JSON body is not parsed here either
  // — 20 MB of JSON and base64 would hold the thread for a while — but hashed as it arrives (the
  // idempotency key's request hash) and handed to the worker whole (registerUpload: login, role and key
  // answered before the body is read, in the gate's back-office lane).
  const endpoint = contract.runImport;
  const uploads = new ImportUploads(deps, placeOf(deps, endpoint).kind, app.log);
  app.addHook('onReady', async () => uploads.start());
  app.addHook('onClose', () => uploads.close());
  registerUpload(
    app,
    deps,
    endpoint,
    (request, payload, done: (error: Error | null, body?: UploadBody) => void) =>
      readBody(request, payload, limit, done),
    async (body, { user, params, key, request, reply }) => {
      const answer = await uploads.upload(user, params.kind, body, key);
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      if (answer.status !== 200) {
        request.log.info({ status: answer.status }, 'request refused');
        return reply.code(answer.status).send(answer.body);
      }
      return reply.send(contractAnswer(endpoint, answer.body));
    },
  );
}

/**
 * The body's bytes, with their SHA-256 taken chunk by chunk as they arrive (never 20 MB at once on the
 * thread), within the upload's limit — as Fastify's own reading does (413 above it, 400 when the bytes do
 * not match Content-Length).
 */
function readBody(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
  limit: number,
  done: (error: Error | null, body?: UploadBody) => void,
): void {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(new FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const hash = createHash('sha256');
  // With a Content-Length the bytes go straight into one buffer of that size (moved to the worker later,
  // not copied): never the chunks and their concatenation at once.
  const whole = Number.isNaN(declared) ? null : Buffer.allocUnsafeSlow(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (size + bytes.length > limit || (whole && size + bytes.length > whole.length)) {
      stop();
      done(
        size + bytes.length > limit
          ? new FST_ERR_CTP_BODY_TOO_LARGE()
          : new FST_ERR_CTP_INVALID_CONTENT_LENGTH(),
      );
      return;
    }
    hash.update(bytes);
    if (whole) bytes.copy(whole, size);
    else chunks.push(bytes);
    size += bytes.length;
  };
  const onEnd = (error?: Error & { statusCode?: number }) => {
    stop();
    if (error) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      done(error);
      return;
    }
    if (!Number.isNaN(declared) && size !== declared) {
      done(new FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    done(null, { bytes: whole ?? Buffer.concat(chunks, size), digest: hash.digest('hex') });
  };
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}
