import { z } from 'zod';
import { endpoint, successOnly } from './endpoint.ts';
import { scanLimits } from './limits.ts';

export const loginAnswer = z.object({
  success: z.literal(true),
  token: z.string(),
  name: z.string(),
  id: z.number().int(),
});

/** Card login: `stechuhrdevice` is the text the scanner reads from the employee card. */
export const loginCard = endpoint({
  name: 'loginCard',
  method: 'POST',
  path: '/api/user/login/qrcode',
  auth: false,
  body: z.object({ stechuhrdevice: z.string().min(1).max(scanLimits.card) }),
  response: loginAnswer,
});

export const loginPassword = endpoint({
  name: 'loginPassword',
  method: 'POST',
  path: '/api/user/login',
  auth: false,
  body: z.object({ username: z.string().trim().min(1).max(200), password: z.string().min(1).max(500) }),
  response: loginAnswer,
});

export const logout = endpoint({
  name: 'logout',
  method: 'GET',
  path: '/api/user/logout',
  response: successOnly,
});
