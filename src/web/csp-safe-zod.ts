import { z } from 'zod';

/**
 * Zod compiles fast parsers with `new Function` unless told not to; the web app's Content-Security-Policy
 * forbids eval (script-src 'self'), so zod must run its plain, eval-free parsers in the browser.
 */
z.config({ jitless: true });
