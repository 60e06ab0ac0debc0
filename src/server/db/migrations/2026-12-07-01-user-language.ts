import { type Kysely, sql } from 'kysely';

/**
 * Every worker in their own language (issue 43, decision 35): the language a user's handheld shows and the
 * server answers in, kept with the user (not the device). Every existing user reads German, the spec's text.
 * The check names the six languages of src/contract/i18n/languages.ts; a new language changes it here too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column language text not null default 'de'
    constraint users_language_check check (language in ('de', 'en', 'pl', 'ro', 'uk', 'tr'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column language`.execute(db);
}
