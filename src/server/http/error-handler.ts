import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { ErrorDetails } from '../../contract/endpoint.ts';
import { texts } from '../../contract/texts.ts';
import { DomainError, type DomainErrorKind } from '../domain/errors.ts';
import { Overloaded } from './admission.ts';
import { HeavyBusy } from './back-office.ts';
import type { DiskFullWatch } from './disk-full.ts';

type ErrorAnswer = { status: number; message: string; details?: ErrorDetails };

/** The HTTP status of each kind of domain refusal: the one place where the domain's words become HTTP's. */
const STATUS_OF: Record<DomainErrorKind, 400 | 401 | 403 | 404 | 406 | 409 | 429> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  limitReached: 406,
  conflict: 409,
  tooManyAttempts: 429,
};

/** The status a domain refusal is answered with (also as the exactly-once store keeps it). */
export function statusOf(error: DomainError): number {
  return STATUS_OF[error.kind];
}

/** Maps anything thrown while answering a request to a status and a German message. */
export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError)
    return { status: statusOf(error), message: error.message, details: error.details };
  // Routes name the refused field themselves (route.ts); a parse anywhere else says no more than this.
  if (error instanceof ZodError) return { status: 400, message: texts.errors.badRequest };
  if (error instanceof Overloaded) return { status: 503, message: texts.errors.overloaded };
  if (error instanceof HeavyBusy) return { status: 503, message: texts.errors.heavyBusy };
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: texts.errors.bodyTooLarge };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, message: texts.errors.unsupportedMediaType };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, message: texts.errors.urlTooLong };
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return { status: 400, message: texts.errors.badUrl };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: texts.errors.invalidJson };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own 4xx (bad JSON, bad header, …): never echo its English text to staff.
    if (error instanceof SyntaxError) return { status: 400, message: texts.errors.invalidJson };
    return { status, message: status === 413 ? texts.errors.bodyTooLarge : texts.errors.badRequest };
  }
  return { status: 500, message: texts.errors.system500 };
}

/** The same answer for errors of a route and errors Fastify meets before routing (bad or over-long URLs). */
export function answerError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  diskFull?: DiskFullWatch,
) {
  const answer = toErrorAnswer(error);
  if (error instanceof Overloaded) {
    // Not logged one by one: the admission gate writes one warning a second however many it refuses.
    return reply
      .code(503)
      .header('retry-after', String(error.retryAfterSeconds))
      .send({ success: false, message: answer.message });
  }
  if (error instanceof HeavyBusy) {
    request.log.info({ status: 503 }, 'heavy operation refused: as many run already (HEAVY_OPERATIONS_MAX)');
    return reply
      .code(503)
      .header('retry-after', String(error.retryAfterSeconds))
      .send({ success: false, message: answer.message });
  }
  if (diskFull?.note(error)) {
    request.log.error(
      { err: error },
      'database disk full: the write was refused and rolled back; free space on the database volume',
    );
  } else if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
  // The caller, once known: a refusal (a 403 above all) in the log names whom it refused.
  else
    request.log.info(
      { status: answer.status, reason: answer.message, user: request.authUser?.id },
      'request refused',
    );
  return reply.code(answer.status).send({ ...answer.details, success: false, message: answer.message });
}

export function registerErrorHandler(app: FastifyInstance, diskFull: DiskFullWatch): void {
  app.setErrorHandler((error, request, reply) => answerError(error, request, reply, diskFull));
}
