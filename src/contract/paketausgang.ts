import { z } from 'zod';
import { endpoint, scanText } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/** Outgoing parcel: answers the carrier (image name, or 'no-image'). */
export const paketausgang = endpoint({
  name: 'paketausgang',
  method: 'PUT',
  path: '/api/paketausgang',
  body: z.object({ tracking: scanText(scanLimits.tracking) }),
  response: z.object({ carrier: z.string() }),
});

/** Outgoing parcel checked against the delivery note just packed. */
export const paketausgangCompare = endpoint({
  name: 'paketausgangCompare',
  method: 'PUT',
  path: '/api/paketausgangcompare',
  body: z.object({ tracking: scanText(scanLimits.tracking), belegnr: scanText() }),
  response: z.object({ carrier: z.string() }),
});
