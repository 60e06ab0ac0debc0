import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** Not in SPEC §7: the replenishment list behind /nachschub (DESIGN §2a). */
export const replenishmentRow = z.object({
  locationId: z.number().int(),
  location: z.string(),
  articleId: z.number().int(),
  nummer: z.string(),
  name: z.string(),
  amount: z.number().int(),
  minimum: z.number().int(),
  /** How much is missing up to the minimum. */
  missing: z.number().int(),
  /** The location suggested to take it from: the one holding the most, not itself a pick location below minimum. */
  source: z
    .object({ locationId: z.number().int(), location: z.string(), amount: z.number().int() })
    .nullable(),
});
export type ReplenishmentRow = z.infer<typeof replenishmentRow>;

export const replenishmentList = endpoint({
  name: 'replenishmentList',
  method: 'GET',
  path: '/api/nachschub',
  response: z.object({ data: z.array(replenishmentRow) }),
});
