import type { ErrorBody, ErrorDetails } from '../../contract/endpoint.ts';
import { texts } from '../../contract/texts.ts';

/**
 * A refusal the staff should read: German message, HTTP status, and optionally the contract's extra fields
 * of an error answer (`errorBody`). Services throw these; the one error handler (error-handler.ts) turns them
 * into `{ success: false, message, …details }`.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 406 | 409 | 413 | 415 | 429 | 503,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The answer's body, also as the exactly-once store keeps a refusal. */
  body(): ErrorBody {
    return { ...this.details, success: false, message: this.message };
  }
}

export const badRequest = (message: string) => new DomainError(400, message);
export const unauthorized = (message: string = texts.errors.unauthorized) => new DomainError(401, message);
export const forbidden = (message: string = texts.errors.forbidden) => new DomainError(403, message);
export const notFound = (message: string, details?: ErrorDetails) => new DomainError(404, message, details);
export const notAcceptable = (message: string) => new DomainError(406, message);
export const conflict = (message: string) => new DomainError(409, message);
export const tooManyRequests = (message: string) => new DomainError(429, message);

/**
 * A refusal because a secret the caller gave was wrong — a password, an employee card, the cheat code. A
 * route that declares attempt budgets counts it as a failed attempt (route.ts, attempt-limits.ts); throw it
 * only where a secret was really compared, never for a refusal that checked none.
 */
export class WrongSecret extends DomainError {}
