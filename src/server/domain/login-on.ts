import { sql } from 'kysely';

/**
 * Whether a login is still on, as auth's session check sees it (auth/sessions.ts): not ended, not idle longer
 * than SESSION_IDLE_MINUTES, its user not switched off — over a column holding the login's session id and the
 * user's `active` column. What a login holds (a cart's trip, a count task's claim) is nobody's once its login
 * is gone: the next one may take it over.
 */
export function loginOn(sessionIdColumn: string, userActiveColumn: string, idleMinutes: number) {
  return sql<boolean>`(${sql.ref(userActiveColumn)} and exists (select 1 from sessions s
    where s.id = ${sql.ref(sessionIdColumn)} and s.revoked_at is null
    and s.last_seen_at > now() - make_interval(mins => ${idleMinutes})))`;
}
