import type { ErrorBody, ErrorDetails } from '../../contract/endpoint.ts';
import { findRendered, type RenderedText } from '../../contract/i18n/current.ts';
import { texts } from '../../contract/texts.ts';

/**
 * What kind of refusal: the domain's word, not an HTTP status. The one error handler
 * (src/server/http/error-handler.ts) maps each kind to its status.
 */
export type DomainErrorKind =
  /** The input breaks a rule (a location moved onto itself, too little stock, a missing field). */
  | 'invalid'
  /** No login, or the login's secret was wrong. */
  | 'unauthenticated'
  /** Logged in, but not allowed this (an integration token at a scanner call, a wrong cheat code). */
  | 'forbidden'
  /** What was named does not exist. */
  | 'notFound'
  /** A count is already at its maximum (a packing line scanned complete). */
  | 'limitReached'
  /**
   * The request contradicts an earlier one (an idempotency key reused for another request), or the state of
   * what it needs: a label printer that did not take the job (409, not 5xx: the handheld shows a 5xx only as
   * 'Systemfehler', and this message must reach the worker).
   */
  | 'conflict'
  /** Too many failed attempts at a secret (decision 14). */
  | 'tooManyAttempts';

/**
 * A refusal the staff should read: its kind, the German message, and optionally the contract's extra fields
 * of an error answer (`errorBody`). Services throw these; the one error handler turns them into
 * `{ success: false, message, …details }` with the kind's status.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.rendered = findRendered(message);
  }

  /**
   * The catalogue's code and arguments of the message (decision 35), noted when the refusal is made: so the
   * exactly-once store keeps them with it, and a replay answers with the same code.
   */
  readonly rendered: RenderedText | undefined;

  /** The answer's body, also as the exactly-once store keeps a refusal. */
  body(): ErrorBody {
    const code = this.rendered && { code: this.rendered.code, params: [...this.rendered.params] };
    return { ...this.details, success: false, message: this.message, ...code };
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const unauthenticated = (message: string = texts.errors.unauthorized) =>
  new DomainError('unauthenticated', message);
export const forbidden = (message: string = texts.errors.forbidden) => new DomainError('forbidden', message);
export const notFound = (message: string, details?: ErrorDetails) =>
  new DomainError('notFound', message, details);
export const limitReached = (message: string) => new DomainError('limitReached', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooManyAttempts = (message: string) => new DomainError('tooManyAttempts', message);

/**
 * A refusal because a secret the caller gave was wrong — a password, an employee card, the cheat code. A
 * route that declares attempt budgets counts it as a failed attempt (src/server/http/route.ts,
 * src/server/auth/attempt-limits.ts); throw it only where a secret was really compared, never for a refusal
 * that checked none.
 */
export class WrongSecret extends DomainError {}
