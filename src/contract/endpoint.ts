import { z } from 'zod';
import { AMOUNT_MAX, type ControlRule, hasForbiddenControlCharacter, scanLimits } from './limits.ts';
import { hasRole, ROLE_PREFIXES, type Role } from './roles.ts';

export type { ControlRule };

// In the browser the page's Content-Security-Policy forbids eval (script-src 'self'); zod would otherwise
// compile its fast parsers with `new Function`. Set here, where every contract module starts, so it holds
// before the first parse wherever the contract is loaded (it is not in the login screen's bundle).
if (typeof document !== 'undefined') z.config({ jitless: true });

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/**
 * Who calls it: a scanner (the web app, with a login's session token) or an integration (another system,
 * with an integration token from `npm run token`). Neither may use the other's calls.
 */
export type Audience = 'scanner' | 'integration';

/**
 * One call of the API contract (SPEC §7). The server registers its route from this descriptor and the web
 * client builds its request from it, so path, method and field names exist exactly once.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  Q extends z.ZodType | null = z.ZodType | null,
> {
  /** Stable name, used in tests and logs. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Fastify-style path: `/api/inventur/findarticle/:number`. */
  readonly path: string;
  readonly params: P;
  /** The query string's parameters; null: the call takes none (and ignores any). */
  readonly query: Q;
  readonly body: B;
  readonly response: R;
  /** false only for the two logins. */
  readonly auth: boolean;
  readonly audience: Audience;
  /**
   * The least role a scanner login needs (DESIGN §9): `mitarbeiter` unless said; null for the logins and the
   * integration calls, which no staff login may use. A lower role gets 403 with texts.errors.role.
   */
  readonly role: Role | null;
  /**
   * Mutating calls of a login carry X-Idempotency-Key and are applied exactly once (DESIGN §5). An
   * integration's write is a PUT of a whole record by its natural key: the same PUT again changes nothing.
   */
  readonly idempotent: boolean;
}

export type ParamsOf<E extends Endpoint> = z.input<E['params']>;
export type BodyOf<E extends Endpoint> = z.input<E['body']>;
export type ResponseOf<E extends Endpoint> = z.output<E['response']>;

const noParams = z.object({}).strict();
const noBody = z.undefined();

export function endpoint<
  P extends z.ZodType = typeof noParams,
  B extends z.ZodType = typeof noBody,
  R extends z.ZodType = z.ZodType,
  Q extends z.ZodType | null = null,
>(def: {
  name: string;
  method: HttpMethod;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  auth?: boolean;
  audience?: Audience;
  role?: Role;
  /**
   * false: a POST that changes nothing (a file made from its body, e.g. badge labels): no idempotency key.
   * Every other POST/PUT writes and is applied exactly once.
   */
  writes?: false;
}): Endpoint<P, B, R, Q> {
  const auth = def.auth ?? true;
  const audience = def.audience ?? 'scanner';
  const role = auth && audience === 'scanner' ? (def.role ?? 'mitarbeiter') : null;
  if (role === null && def.role) throw new Error(`${def.name}: only a scanner call with a login has a role`);
  for (const { prefix, role: least } of ROLE_PREFIXES) {
    if (def.path.startsWith(prefix) && (role === null || !hasRole(role, least)))
      throw new Error(`${def.name}: a call under ${prefix} needs at least the role ${least}`);
  }
  return {
    name: def.name,
    method: def.method,
    path: def.path,
    params: (def.params ?? noParams) as P,
    query: (def.query ?? null) as Q,
    body: (def.body ?? noBody) as B,
    response: def.response,
    auth,
    audience,
    role,
    idempotent: def.method !== 'GET' && auth && audience === 'scanner' && def.writes !== false,
  };
}

export { buildPath } from './path.ts';

// ── Shared field schemas ──────────────────────────────────────────────────────────────────────────────

const MAX_INT = 2_147_483_647;

/** Marks the refusal of a control character, so its message can say so (src/contract/input-errors.ts). */
export const CONTROL_CHARACTER = 'controlCharacter';

/**
 * Every text field of the contract, with its rule: one text type for scans and typed text alike, so no field
 * can take what the database cannot store (test/api/control-characters.test.ts sends each one every control
 * character, and fails for a string field that is neither a text nor a fixed format).
 */
export const textFields = z.registry<{ controls: ControlRule }>();

/**
 * A text field: at most `max` characters (after trimming, unless `trim: false`), at least `min`, and no
 * control character its rule refuses (400 naming the field, texts.errors.input.controlCharacter…).
 */
export function text(
  max: number,
  { min = 0, trim = true, controls = 'scan' }: { min?: number; trim?: boolean; controls?: ControlRule } = {},
) {
  const base = trim ? z.string().trim() : z.string();
  const schema = base
    .max(max)
    .min(min)
    .refine((s) => !hasForbiddenControlCharacter(s, controls), {
      params: { reason: CONTROL_CHARACTER, controls },
    });
  textFields.add(schema, { controls });
  return schema;
}

/** Text as a scanner or a person types it: trimmed, not empty, no control characters except GS (ASCII 29). */
export const scanText = (max: number = scanLimits.code) => text(max, { min: 1 });

/**
 * The same where an empty text must reach the server, which names what is missing in the spec's words
 * ('Kennzeichen fehlt!').
 */
export const scanTextOrEmpty = (max: number = scanLimits.code) => text(max);

/** A database id in a URL segment ("12"). */
export const idParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .pipe(z.number().int().max(MAX_INT));

/** A database id in a JSON body. */
export const id = z.number().int().min(1).max(MAX_INT);

/** A counted or moved amount in a JSON body: at least `min`, at most AMOUNT_MAX. */
export const amount = (min: number) => z.number().int().min(min).max(AMOUNT_MAX);

export const successOnly = z.object({ success: z.literal(true) });
export const successMessage = z.object({ success: z.boolean(), message: z.string() });

/**
 * Every error answer of the API: the German message to show, and where a screen can offer a next step, a
 * field saying which.
 */
export const errorBody = z.object({
  success: z.literal(false),
  message: z.string(),
  /**
   * Not in SPEC §7 (issue 43, decision 35): what the message says, for a client or integration that must not
   * parse words — the catalogue's key of the text (`lookup.locationNotFound`), or `http.<status>` for a
   * message no catalogue made. The same in every language; `params` are the text's arguments in order.
   */
  code: z
    .string()
    .optional()
    .describe("The message's stable code: its text's key (lookup.locationNotFound), else http.<status>."),
  params: z
    .array(z.unknown())
    .optional()
    .describe('The arguments the message was made with, in order (the scanned code, …); [] for none.'),
  /**
   * scanPackageItem's 404 when the scanned item is another delivery note's number: that note's belegnr, so
   * the packing screen can offer to switch to it.
   */
  lieferschein: z
    .string()
    .optional()
    .describe("The scanned code is this other delivery note's number (packing station, 404)."),
  /**
   * Kommissionierung's 409 when the caller does not hold the note any more (another picker, or the same login
   * on another handheld, took it): that note's belegnr, so the screen lets go of it instead of showing a
   * stale plan.
   */
  abgegeben: z
    .string()
    .optional()
    .describe('Kommissionierung (409): this note is not picked by this handheld any more.'),
  /**
   * The cart flow's 409 when the trip is over for this handheld (finished, abandoned, or taken over by the
   * same account on another handheld): the cart's code, so the screen ends the trip on this marker rather
   * than on the wording of the message.
   */
  fahrtVorbei: z
    .string()
    .optional()
    .describe(
      "Kommissionierwagen (409): this cart's trip is not this handheld's any more (the cart's code).",
    ),
});
export type ErrorBody = z.infer<typeof errorBody>;
/** What an error answer may carry beside its message. */
export type ErrorDetails = Omit<ErrorBody, 'success' | 'message'>;
