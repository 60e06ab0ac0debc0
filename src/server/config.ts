import path from 'node:path';
import { z } from 'zod';

/**
 * Operator configuration, from environment variables only. Parsed once at start; a bad value stops the
 * process with a clear English message (operators read logs in English), never a half-configured server.
 */
const intInRange = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const value = Number(raw);
      if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from ${min} to ${max}, got "${raw}"`,
        });
        return z.NEVER;
      }
      return value;
    });

const envSchema = z.object({
  PORT: intInRange('PORT', 0, 65535, 3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return null;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'DATABASE_URL must be a URL like postgres://user:pass@host:5432/db',
        });
        return z.NEVER;
      }
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
        ctx.addIssue({
          code: 'custom',
          message: `DATABASE_URL must start with postgres:// (got ${url.protocol}//)`,
        });
        return z.NEVER;
      }
      return raw;
    }),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_POOL_SIZE: intInRange('DATABASE_POOL_SIZE', 1, 500, 10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_MINUTES: intInRange('SESSION_IDLE_MINUTES', 1, 60 * 24 * 30, 12 * 60),
  SESSION_CACHE_SECONDS: intInRange('SESSION_CACHE_SECONDS', 0, 30, 2),
  SESSION_MAX_PER_USER: intInRange('SESSION_MAX_PER_USER', 1, 10_000, 20),
  BODY_LIMIT_KB: intInRange('BODY_LIMIT_KB', 1, 10_240, 64),
  LOGIN_MAX_FAILURES_PER_USER: intInRange('LOGIN_MAX_FAILURES_PER_USER', 1, 10_000, 10),
  LOGIN_MAX_FAILURES_PER_IP: intInRange('LOGIN_MAX_FAILURES_PER_IP', 1, 100_000, 100),
  LOGIN_WINDOW_MINUTES: intInRange('LOGIN_WINDOW_MINUTES', 1, 24 * 60, 15),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === undefined || v === '' || v === 'true' || v === '1'),
  CHEAT_CODE: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return null;
      if (raw.trim().length < 6 || raw.length > 200) {
        ctx.addIssue({
          code: 'custom',
          message: 'CHEAT_CODE must be 6 to 200 characters (or unset to switch it off)',
        });
        return z.NEVER;
      }
      return raw.trim();
    }),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const origins = (raw ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== '');
      for (const origin of origins) {
        let url: URL | null = null;
        try {
          url = new URL(origin);
        } catch {
          url = null;
        }
        if (!url || url.origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `CORS_ORIGINS: "${origin}" is not an origin like https://scanner.example.com`,
          });
          return z.NEVER;
        }
      }
      return origins;
    }),
  CSP_CONNECT_SRC: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const sources = (raw ?? '').split(/\s+/).filter((o) => o !== '');
      for (const source of sources) {
        if (!/^https?:\/\/[^\s;,'"]+$/.test(source)) {
          ctx.addIssue({ code: 'custom', message: `CSP_CONNECT_SRC: "${source}" is not an http(s) origin` });
          return z.NEVER;
        }
      }
      return sources;
    }),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export interface Config {
  port: number;
  host: string;
  /** null → embedded PGlite in dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  sessionIdleMinutes: number;
  /** How long an instance trusts a login the database accepted (decision 7); 0: ask every time. */
  sessionCacheSeconds: number;
  /** Live logins per user; a new one past it ends the one unused for longest. */
  sessionMaxPerUser: number;
  bodyLimitBytes: number;
  loginMaxFailuresPerUser: number;
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
  /** Seed the demo warehouse into an empty database at start. */
  seedDemo: boolean;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For. */
  trustProxy: boolean;
  /** Scanned at the packing station, completes a delivery note at once (journalled). null: switched off. */
  cheatCode: string | null;
  /** Web origins allowed to call this API from another host (CORS). Empty: same origin only. */
  corsOrigins: string[];
  /** Extra API hosts the web app may connect to (its Content-Security-Policy connect-src). */
  cspConnectSrc: string[];
  /** Built web app (index.html + assets). */
  webDir: string;
  /** Carton and carrier pictures, served at /images/. */
  imagesDir: string;
}

export class ConfigError extends Error {}

/** The project folder (config.ts and the server bundle both sit two levels below it). */
export const projectRoot = path.resolve(import.meta.dirname, '../..');

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = issue.path.join('.');
      return issue.code === 'custom' ? `  - ${issue.message}` : `  - ${key}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    sessionMaxPerUser: e.SESSION_MAX_PER_USER,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    loginMaxFailuresPerUser: e.LOGIN_MAX_FAILURES_PER_USER,
    loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
    loginWindowMinutes: e.LOGIN_WINDOW_MINUTES,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    cheatCode: e.CHEAT_CODE,
    corsOrigins: e.CORS_ORIGINS,
    cspConnectSrc: e.CSP_CONNECT_SRC,
    webDir: path.join(projectRoot, 'dist/web'),
    imagesDir: path.join(projectRoot, 'assets/images'),
  };
}

/**
 * Defaults for tests: everything as in production, nothing from the environment — except the session cache,
 * off, so a test that ends a session straight in the database sees it ended (the cache has its own tests).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ LOG_LEVEL: 'silent', SESSION_CACHE_SECONDS: '0' }), ...overrides };
}
