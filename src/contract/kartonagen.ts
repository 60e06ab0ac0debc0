import { z } from 'zod';
import { endpoint, id, scanText, successOnly } from './endpoint.ts';
import { deliveryNoteId, deliveryNoteIdParam } from './ids.ts';

export const cartonRow = z.object({
  packageid: z.number().int(),
  name: z.string(),
  /** Current count for this delivery note. */
  amount: z.number().int(),
  height: z.number(),
  width: z.number(),
  depth: z.number(),
});

/** The cartons of the note's project, each with the count recorded for this note so far. */
export const packageRecording = endpoint({
  name: 'packageRecording',
  method: 'GET',
  path: '/api/packagerecording/:belegnr',
  params: z.object({ belegnr: scanText() }),
  response: z.object({
    data: z.object({ id: z.number().int(), belegnr: z.string(), kartonagen: z.array(cartonRow) }),
  }),
});

/** Stores the note's carton counts (the whole set: what is sent is what was used). */
export const savePackageRecording = endpoint({
  name: 'savePackageRecording',
  method: 'PUT',
  path: '/api/packagerecording/:id',
  params: z.object({ id: deliveryNoteIdParam }),
  body: z.object({
    id: deliveryNoteId,
    belegnr: scanText(),
    user_id: id,
    kartonagen: z.array(z.object({ packageid: id, amount: z.number().int().min(0).max(10_000) })).max(200),
  }),
  response: successOnly,
});
