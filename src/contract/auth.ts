import { z } from 'zod';
import { endpoint, successOnly, text } from './endpoint.ts';
import { languageCodes } from './i18n/languages.ts';
import { scanLimits } from './limits.ts';
import { ROLES } from './roles.ts';

export const loginAnswer = z.object({
  success: z.literal(true),
  token: z.string(),
  name: z.string(),
  id: z.number().int(),
  /** Not in SPEC §7: what the login may do (DESIGN §9); the handheld shows the Leitstand to leads. */
  role: z.enum(ROLES),
  /** Not in SPEC §7: the language the user reads (issue 43, decision 35); the handheld switches to it. */
  language: z.enum(languageCodes),
});

/** Card login: `stechuhrdevice` is the text the scanner reads from the employee card. */
export const loginCard = endpoint({
  name: 'loginCard',
  method: 'POST',
  path: '/api/user/login/qrcode',
  auth: false,
  // Taken exactly as scanned: the card's hash must match.
  body: z.object({ stechuhrdevice: text(scanLimits.card, { min: 1, trim: false }) }),
  response: loginAnswer,
});

export const loginPassword = endpoint({
  name: 'loginPassword',
  method: 'POST',
  path: '/api/user/login',
  auth: false,
  body: z.object({
    username: text(200, { min: 1, controls: 'typed' }),
    // Exactly as typed (a space may be part of it); only NUL is refused (ControlRule 'secret').
    password: text(500, { min: 1, trim: false, controls: 'secret' }),
  }),
  response: loginAnswer,
});

export const logout = endpoint({
  name: 'logout',
  method: 'GET',
  path: '/api/user/logout',
  response: successOnly,
});

/**
 * Not in SPEC §7 (issue 43, decision 35): a worker chooses their own language in Einstellungen. Kept with the
 * user, not the device: every handheld they log in on, and every answer of the server, follows it.
 */
export const setLanguage = endpoint({
  name: 'setLanguage',
  method: 'PUT',
  path: '/api/einstellungen/sprache',
  body: z.object({ language: z.enum(languageCodes) }),
  response: successOnly,
});
