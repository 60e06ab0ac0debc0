import type { Kysely } from 'kysely';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { invalid } from '../../domain/errors.ts';

/** A truck leaving: plate, seal, swap body and fill level; required in that order (SPEC §5). */
export async function captureTransporter(
  db: Kysely<Database>,
  input: { kennzeichen: string; container: string; plombe: string; value: number; userId: number },
) {
  if (input.kennzeichen === '') throw invalid(texts.transporter.kennzeichenMissing);
  if (input.plombe === '') throw invalid(texts.transporter.plombeMissing);
  if (input.container === '') throw invalid(texts.transporter.containerMissing);
  await db
    .insertInto('transporter_events')
    .values({
      kennzeichen: input.kennzeichen,
      container: input.container,
      plombe: input.plombe,
      fill_value: input.value,
      user_id: input.userId,
    })
    .execute();
  return { success: true, message: texts.transporter.captured(input.kennzeichen) };
}
