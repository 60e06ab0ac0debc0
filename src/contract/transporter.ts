import { z } from 'zod';
import { endpoint, scanTextOrEmpty, successMessage } from './endpoint.ts';

/** A truck leaving: plate, swap body, seal and fill level (in steps of 5 %). */
export const captureTransporter = endpoint({
  name: 'captureTransporter',
  method: 'PUT',
  path: '/api/transporterfassung',
  // Empty texts reach the server, which names the first missing field (kennzeichen, plombe, container).
  body: z.object({
    kennzeichen: scanTextOrEmpty(20),
    container: scanTextOrEmpty(100),
    plombe: scanTextOrEmpty(100),
    value: z.number().int().min(0).max(100).multipleOf(5),
  }),
  response: successMessage,
});
