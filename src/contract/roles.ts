/**
 * Who may do what (DESIGN §9): every handheld screen for `mitarbeiter`; the Leitstand on top for
 * `schichtleitung`; users, interfaces and the import upload on top for `admin`. Each role includes the ones
 * before it. Plain data, no zod: the handheld's menu reads it in the first download.
 */
export const ROLES = ['mitarbeiter', 'schichtleitung', 'admin'] as const;

export type Role = (typeof ROLES)[number];

/** Whether a user with role `have` may do what needs `need`. */
export function hasRole(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Where the calls of a role live: a call under the prefix needs at least that role. */
export const ROLE_PREFIXES: readonly { prefix: string; role: Role }[] = [
  { prefix: '/api/leitstand/', role: 'schichtleitung' },
  { prefix: '/api/admin/', role: 'admin' },
];
