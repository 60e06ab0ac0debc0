// Over 400 lines on purpose: every environment variable is read and checked here, in one place, so an
// operator's whole configuration is one list (docs/configuration.md follows it in the same order).
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import {
  isAddressOrRange,
  type PrinterRules,
  printerTargetProblem,
  RAW_PRINTER_PORT,
  type TargetProblem,
} from './domain/printer-address.ts';
import { BACK_OFFICE_NICE_DEFAULT } from './workers.ts';

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
  DURABILITY: z
    .string()
    .optional()
    .transform((raw, ctx): 'full' | 'off' => {
      const value = (raw ?? '').trim().toLowerCase();
      if (value === '' || value === 'full') return 'full';
      if (value === 'off') return 'off';
      ctx.addIssue({
        code: 'custom',
        message: `DURABILITY must be "full" (the default: every answer waits until its booking is on disk) or "off" (faster; a power cut or an operating-system crash can lose answered bookings or damage the embedded database), got "${raw}"`,
      });
      return z.NEVER;
    }),
  DATABASE_POOL_SIZE: intInRange('DATABASE_POOL_SIZE', 1, 500, 10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_MINUTES: intInRange('SESSION_IDLE_MINUTES', 1, 60 * 24 * 30, 12 * 60),
  SESSION_CACHE_SECONDS: intInRange('SESSION_CACHE_SECONDS', 0, 30, 2),
  SESSION_MAX_PER_USER: intInRange('SESSION_MAX_PER_USER', 1, 10_000, 20),
  LIVE_STREAMS_PER_LOGIN: intInRange('LIVE_STREAMS_PER_LOGIN', 1, 100, 5),
  BODY_LIMIT_KB: intInRange('BODY_LIMIT_KB', 1, 10_240, 64),
  IMPORT_LIMIT_KB: intInRange('IMPORT_LIMIT_KB', 64, 1_048_576, 20_480),
  REQUEST_TIMEOUT_SECONDS: intInRange('REQUEST_TIMEOUT_SECONDS', 1, 600, 30),
  CONNECTION_TIMEOUT_SECONDS: intInRange('CONNECTION_TIMEOUT_SECONDS', 1, 3600, 60),
  KEEP_ALIVE_TIMEOUT_SECONDS: intInRange('KEEP_ALIVE_TIMEOUT_SECONDS', 1, 3600, 72),
  LOGIN_MAX_FAILURES_PER_USER: intInRange('LOGIN_MAX_FAILURES_PER_USER', 1, 10_000, 10),
  LOGIN_MAX_FAILURES_PER_IP: intInRange('LOGIN_MAX_FAILURES_PER_IP', 1, 100_000, 100),
  LOGIN_WINDOW_MINUTES: intInRange('LOGIN_WINDOW_MINUTES', 1, 24 * 60, 15),
  PICK_CLAIM_MINUTES: intInRange('PICK_CLAIM_MINUTES', 1, 24 * 60, 15),
  PACK_UNPICKED: z
    .string()
    .optional()
    .transform((raw, ctx): 'book' | 'refuse' => {
      const value = (raw ?? '').trim().toLowerCase();
      if (value === '' || value === 'book') return 'book';
      if (value === 'refuse') return 'refuse';
      ctx.addIssue({
        code: 'custom',
        message: `PACK_UNPICKED must be "book" (the default: packing a note that was not picked books its stock out as the items are scanned) or "refuse" (the packing station refuses a note until it is picked completely), got "${raw}"`,
      });
      return z.NEVER;
    }),
  OVERLOAD_MAX_WAIT_MS: intInRange('OVERLOAD_MAX_WAIT_MS', 10, 60_000, 500),
  HEAVY_OPERATIONS_MAX: intInRange('HEAVY_OPERATIONS_MAX', 1, 20, 1),
  BACK_OFFICE_NICE: intInRange('BACK_OFFICE_NICE', 0, 19, BACK_OFFICE_NICE_DEFAULT),
  TIME_ZONE: z
    .string()
    .trim()
    .default('Europe/Berlin')
    .refine((zone) => isTimeZone(zone), {
      message: 'TIME_ZONE must be an IANA time zone such as Europe/Berlin',
    }),
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
  PRINTERS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const printers = parsePrinters(raw ?? '');
      if (typeof printers === 'string') {
        ctx.addIssue({ code: 'custom', message: `PRINTERS: ${printers}` });
        return z.NEVER;
      }
      return printers;
    }),
  PRINTER_PORTS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const ports = new Set([RAW_PRINTER_PORT]);
      for (const entry of (raw ?? '').split(',').map((p) => p.trim())) {
        if (entry === '') continue;
        const port = Number(entry);
        if (!/^\d{1,5}$/.test(entry) || port < 1 || port > 65535) {
          ctx.addIssue({
            code: 'custom',
            message: `PRINTER_PORTS: "${entry}" is not a port from 1 to 65535 (several separated by commas; 9100 is always allowed)`,
          });
          return z.NEVER;
        }
        ports.add(port);
      }
      return [...ports];
    }),
  PRINTER_ALLOWED_ADDRESSES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const entries = (raw ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '');
      const bad = entries.find((entry) => !isAddressOrRange(entry));
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `PRINTER_ALLOWED_ADDRESSES: "${bad}" is not an IP address or range (e.g. 127.0.0.1, 169.254.10.0/24, ::1)`,
        });
        return z.NEVER;
      }
      return entries;
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
  SERVE_SOURCE_MAPS: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      const value = (raw ?? '').trim();
      if (value === '' || value === 'false' || value === '0') return false;
      const refuse = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      if (/^(true|yes|on)$/i.test(value)) return refuse(TRUST_PROXY_TRUE);
      if (/^\d+$/.test(value)) return refuse(TRUST_PROXY_HOPS(value));
      const proxies = value.split(',').map((entry) => entry.trim());
      const bad = proxies.find((entry) => !isProxyAddress(entry));
      return bad === undefined
        ? proxies
        : refuse(
            `TRUST_PROXY: "${bad}" is not a proxy address or range (e.g. 127.0.0.1, 10.0.0.0/8, ::1, loopback)`,
          );
    }),
});

/**
 * Whom to believe about the client's address (Fastify's trustProxy): false, or the addresses and ranges of
 * the proxies in front of this server. Never `true`: that believes every X-Forwarded-For hop, and behind a
 * proxy that appends to the header the client writes the first one itself. Never a hop count either: it
 * cannot tell the proxy from a client that reaches the server directly, and Fastify 5 ignores it (it would
 * silently take the proxy's address for every worker, who would then share one login limit).
 */
export type TrustProxy = false | string[];
const HOW_TO_TRUST =
  "Give the proxy's address instead: 127.0.0.1 for nginx or Caddy on this machine; several addresses or ranges separated by commas (e.g. 10.0.0.5, 10.0.0.0/8)";
const TRUST_PROXY_TRUE = `TRUST_PROXY=true would trust every X-Forwarded-For hop, so a client could choose its own address. ${HOW_TO_TRUST}`;
const TRUST_PROXY_HOPS = (value: string) =>
  `TRUST_PROXY=${value}: a number of proxies cannot tell the proxy from a client that reaches this server directly, and Fastify ignores it. ${HOW_TO_TRUST}`;

/** An address or CIDR range as proxy-addr (Fastify) takes it, or one of its names for the private ranges. */
function isProxyAddress(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** A network label printer (raw TCP, usually port 9100) from PRINTERS. */
export interface PrinterConfig {
  name: string;
  host: string;
  port: number;
  dpi: 203 | 300;
}

/**
 * PRINTERS: `name=host:port[,dpi]`, several separated by `;` (e.g. `Versand=192.0.2.10:9100,203;Lager=[2001:db8::5]:9100,300`).
 * The printers or an English message naming what is wrong.
 */
export function parsePrinters(raw: string): PrinterConfig[] | string {
  const printers: PrinterConfig[] = [];
  for (const entry of raw.split(';').map((e) => e.trim())) {
    if (entry === '') continue;
    const match = /^([^=]+)=(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})(?:,(\d+))?$/.exec(entry);
    if (!match) return `"${entry}" is not name=host:port[,dpi] (e.g. Versand=192.0.2.10:9100,203)`;
    const [, rawName = '', rawHost = '', rawPort = '', rawDpi] = match;
    const name = rawName.trim();
    const port = Number(rawPort);
    if (name === '' || name.length > 50) return `"${entry}": the name must be 1 to 50 characters`;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    if (/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/.test(name))
      return `"${entry}": the name holds a control character or an invisible bidi character`;
    if (port < 1 || port > 65535) return `"${entry}": the port must be 1 to 65535`;
    if (rawDpi !== undefined && rawDpi !== '203' && rawDpi !== '300')
      return `"${entry}": dpi must be 203 or 300`;
    if (printers.some((p) => p.name.toLowerCase() === name.toLowerCase()))
      return `the printer name "${name}" is given twice`;
    const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
    printers.push({ name, host, port, dpi: rawDpi === '300' ? 300 : 203 });
  }
  return printers;
}

/** Why PRINTERS names a printer the server may not send jobs to, for the operator. */
function printerProblemInEnglish(printer: PrinterConfig, problem: TargetProblem): string {
  const entry = `"${printer.name}=${printer.host}:${printer.port}"`;
  switch (problem.problem) {
    case 'port':
      return `${entry}: port ${problem.port} is not allowed for printers (9100 is; add others to PRINTER_PORTS)`;
    case 'host':
      return `${entry}: the host must be a host name or an IP address`;
    case 'numericHost':
      return `${entry}: write an IPv4 address as four numbers (192.0.2.10), not as "${printer.host}"`;
    case 'address':
      return `${entry}: ${problem.kind} addresses are refused for printers (the server would connect to itself or its network's services); if this printer really is there, name its address in PRINTER_ALLOWED_ADDRESSES`;
  }
}

export interface Config {
  port: number;
  host: string;
  /** null → embedded PGlite in dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /**
   * The embedded database: 'full' answers a write only once it is on disk (decision 28); 'off' never forces
   * the files to disk (faster; a power cut can lose answered bookings or damage the data folder).
   */
  durability: 'full' | 'off';
  databasePoolSize: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  sessionIdleMinutes: number;
  /** How long an instance trusts a login the database accepted (decision 7); 0: ask every time. */
  sessionCacheSeconds: number;
  /** Live logins per user; a new one past it ends the one unused for longest. */
  sessionMaxPerUser: number;
  /** Open Leitstand live streams one login may hold on this instance; one more is refused (429). */
  liveStreamsPerLogin: number;
  bodyLimitBytes: number;
  /** The Leitstand's CSV upload (a file as base64 in JSON): its own body limit, above BODY_LIMIT_KB's. */
  importLimitBytes: number;
  /** A request's headers and body must arrive within this, else 408 and the connection closes. */
  requestTimeoutSeconds: number;
  /** A connection with a request open that sends and receives nothing for this long is closed. */
  connectionTimeoutSeconds: number;
  /** How long an idle connection is kept open for the client's next request. */
  keepAliveTimeoutSeconds: number;
  loginMaxFailuresPerUser: number;
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
  /** A delivery note being picked is free for another picker after this long without a call from its picker. */
  pickClaimMinutes: number;
  /**
   * A delivery note not picked completely at the packing station (issue 36): 'book' packs it and books the
   * scanned pieces out of stock; 'refuse' refuses it until it is picked.
   */
  packUnpicked: 'book' | 'refuse';
  /**
   * The longest an API request waits for its turn when the server is busy; one that would wait longer is
   * answered 503 with Retry-After at once (decision 26).
   */
  overloadMaxWaitMs: number;
  /**
   * Heavy back-office operations one server instance runs at once (the journal's CSV, label files, an import,
   * a backup); one more is answered 503 with Retry-After in German (DESIGN §10).
   */
  heavyOperationsMax: number;
  /**
   * The CPU priority (nice) of back-office work beside the server — the worker threads that read an import
   * and draw label files, `npm run backup -- create`: 19, the lowest, lets the handhelds' thread and the
   * database go first on a busy machine; 0 runs them as the server. The workers read it from the environment
   * themselves (src/server/workers.ts); here it is checked at start.
   */
  backOfficeNice: number;
  /** The site's time zone: where "today" and its hours begin in the Leitstand. */
  timeZone: string;
  /** Seed the demo warehouse into an empty database at start. */
  seedDemo: boolean;
  /**
   * Behind a reverse proxy: the addresses (and ranges) of the proxies that may name the client in
   * X-Forwarded-For. false: the socket's address is the client's.
   */
  trustProxy: TrustProxy;
  /** Scanned at the packing station, completes a delivery note at once (journalled). null: switched off. */
  cheatCode: string | null;
  /** Network label printers from PRINTERS (beside those the admin sets up in the Leitstand). */
  printers: PrinterConfig[];
  /** Where a printer may be: its ports (9100 and PRINTER_PORTS), blocked addresses allowed (PRINTER_ALLOWED_ADDRESSES). */
  printerRules: PrinterRules;
  /** Web origins allowed to call this API from another host (CORS). Empty: same origin only. */
  corsOrigins: string[];
  /** Extra API hosts the web app may connect to (its Content-Security-Policy connect-src). */
  cspConnectSrc: string[];
  /** Hand out the web app's source maps (*.map); off by default, they are the app's whole source. */
  serveSourceMaps: boolean;
  /** Built web app (index.html + assets). */
  webDir: string;
  /** Carton and carrier pictures, served at /images/. */
  imagesDir: string;
}

export class ConfigError extends Error {}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('de-DE', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/** The project folder (config.ts and the server bundle both sit two levels below it). */
export const projectRoot = path.resolve(import.meta.dirname, '../..');

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema
    .superRefine((e, ctx) => {
      if (e.DURABILITY === 'off' && e.DATABASE_URL !== null) {
        ctx.addIssue({
          code: 'custom',
          message:
            "DURABILITY=off applies to the embedded database only; with DATABASE_URL, PostgreSQL's own settings decide (synchronous_commit in postgresql.conf). Unset DURABILITY",
        });
      }
      const rules = { ports: e.PRINTER_PORTS, allowedAddresses: e.PRINTER_ALLOWED_ADDRESSES };
      for (const printer of e.PRINTERS) {
        const problem = printerTargetProblem(printer.host, printer.port, rules);
        if (problem)
          ctx.addIssue({ code: 'custom', message: `PRINTERS: ${printerProblemInEnglish(printer, problem)}` });
      }
    })
    .safeParse(env);
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
    durability: e.DURABILITY,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    sessionMaxPerUser: e.SESSION_MAX_PER_USER,
    liveStreamsPerLogin: e.LIVE_STREAMS_PER_LOGIN,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    importLimitBytes: e.IMPORT_LIMIT_KB * 1024,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    connectionTimeoutSeconds: e.CONNECTION_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: e.KEEP_ALIVE_TIMEOUT_SECONDS,
    loginMaxFailuresPerUser: e.LOGIN_MAX_FAILURES_PER_USER,
    loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
    loginWindowMinutes: e.LOGIN_WINDOW_MINUTES,
    pickClaimMinutes: e.PICK_CLAIM_MINUTES,
    packUnpicked: e.PACK_UNPICKED,
    overloadMaxWaitMs: e.OVERLOAD_MAX_WAIT_MS,
    heavyOperationsMax: e.HEAVY_OPERATIONS_MAX,
    backOfficeNice: e.BACK_OFFICE_NICE,
    timeZone: e.TIME_ZONE,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    cheatCode: e.CHEAT_CODE,
    corsOrigins: e.CORS_ORIGINS,
    printers: e.PRINTERS,
    printerRules: { ports: e.PRINTER_PORTS, allowedAddresses: e.PRINTER_ALLOWED_ADDRESSES },
    cspConnectSrc: e.CSP_CONNECT_SRC,
    serveSourceMaps: e.SERVE_SOURCE_MAPS,
    webDir: path.join(projectRoot, 'dist/web'),
    imagesDir: path.join(projectRoot, 'assets/images'),
  };
}

/**
 * Defaults for tests: everything as in production, nothing from the environment — except the session cache,
 * off, so a test that ends a session straight in the database sees it ended (the cache has its own tests),
 * and the admission gate's longest wait, at its maximum: a test's burst on a machine busy with other tests
 * waits in line instead of being refused (test/api/overload.test.ts sets its own).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', SESSION_CACHE_SECONDS: '0', OVERLOAD_MAX_WAIT_MS: '60000' }),
    ...overrides,
  };
}
