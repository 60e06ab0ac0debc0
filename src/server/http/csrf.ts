import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * CSRF token rendered into index.html (`<meta name="csrf-token">`) and sent back by the web client's second
 * client as X-CSRF-Token. The API authenticates with a bearer token, not a cookie, so a forged cross-site
 * request carries no credentials anyway; the token is defence in depth: a request that presents one must
 * present a valid one. Tokens are `nonce.hmac(secret, nonce)`, so any server instance can check them; the
 * secret lives in the database (settings) and is shared by all instances.
 */
export class CsrfTokens {
  constructor(private readonly secret: Buffer) {}

  static async load(db: Kysely<Database>): Promise<CsrfTokens> {
    await db
      .insertInto('settings')
      .values({ key: 'csrf_secret', value: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'csrf_secret')
      .executeTakeFirstOrThrow();
    return new CsrfTokens(Buffer.from(row.value, 'base64url'));
  }

  issue(): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.sign(nonce)}`;
  }

  verify(token: string): boolean {
    const [nonce, signature, extra] = token.split('.');
    if (!nonce || !signature || extra !== undefined || nonce.length > 64) return false;
    const expected = Buffer.from(this.sign(nonce));
    const actual = Buffer.from(signature);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private sign(nonce: string): string {
    return createHmac('sha256', this.secret).update(nonce).digest('base64url');
  }
}
