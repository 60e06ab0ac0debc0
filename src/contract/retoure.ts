import { z } from 'zod';
import { endpoint, scanText, successMessage } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/** Return parcel by tracking number. */
export const retourenerfassung = endpoint({
  name: 'retourenerfassung',
  method: 'PUT',
  path: '/api/retourenerfassung',
  body: z.object({ tracking: scanText(scanLimits.tracking) }),
  response: successMessage,
});
