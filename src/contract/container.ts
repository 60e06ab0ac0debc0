import { z } from 'zod';
import { endpoint, scanText, successMessage } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/** Wechselbrücke: a batch loaded onto a swap body (or carrier container). */
export const captureContainer = endpoint({
  name: 'captureContainer',
  method: 'PUT',
  path: '/api/containererfassung',
  body: z.object({ container: scanText(scanLimits.container), batch: scanText(scanLimits.batch) }),
  response: successMessage,
});
