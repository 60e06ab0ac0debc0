import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('runs with no variables at all: port 3000, embedded database in ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.sessionIdleMinutes).toBe(720);
    expect(config.sessionMaxPerUser).toBe(20);
    expect(config.seedDemo).toBe(true);
    expect(config.serveSourceMaps).toBe(false);
    expect(config.packUnpicked).toBe('book');
    expect(config).toMatchObject({
      requestTimeoutSeconds: 30,
      connectionTimeoutSeconds: 60,
      keepAliveTimeoutSeconds: 72,
      overloadMaxWaitMs: 500,
    });
  });

  it('allows an address ten times the failures of a user name by default (decision 14: many handhelds behind one NAT)', () => {
    const config = loadConfig({});
    expect(config.loginMaxFailuresPerUser).toBe(10);
    expect(config.loginMaxFailuresPerIp).toBe(100);
    expect(config.loginWindowMinutes).toBe(15);
  });

  it('takes every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://lager:geheim@db.intern:5432/lager',
      DATA_DIR: '/var/lib/lagerscanner',
      DURABILITY: 'full',
      DATABASE_POOL_SIZE: '20',
      LOG_LEVEL: 'warn',
      SESSION_IDLE_MINUTES: '60',
      SESSION_MAX_PER_USER: '50',
      LIVE_STREAMS_PER_LOGIN: '3',
      BODY_LIMIT_KB: '128',
      IMPORT_LIMIT_KB: '4096',
      LOGIN_MAX_FAILURES_PER_USER: '5',
      LOGIN_MAX_FAILURES_PER_IP: '100',
      LOGIN_WINDOW_MINUTES: '30',
      PICK_CLAIM_MINUTES: '5',
      PACK_UNPICKED: 'refuse',
      OVERLOAD_MAX_WAIT_MS: '800',
      HEAVY_OPERATIONS_MAX: '3',
      BACK_OFFICE_NICE: '10',
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1',
      CORS_ORIGINS: 'https://scanner.example.com, http://10.0.0.5:8080',
      CSP_CONNECT_SRC: 'https://api.example.com',
      CHEAT_CODE: 'GEHEIM-2026',
      SERVE_SOURCE_MAPS: 'true',
      REQUEST_TIMEOUT_SECONDS: '20',
      CONNECTION_TIMEOUT_SECONDS: '90',
      KEEP_ALIVE_TIMEOUT_SECONDS: '65',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://lager:geheim@db.intern:5432/lager',
      dataDir: '/var/lib/lagerscanner',
      durability: 'full',
      databasePoolSize: 20,
      logLevel: 'warn',
      sessionIdleMinutes: 60,
      sessionMaxPerUser: 50,
      liveStreamsPerLogin: 3,
      bodyLimitBytes: 128 * 1024,
      importLimitBytes: 4096 * 1024,
      loginMaxFailuresPerUser: 5,
      loginMaxFailuresPerIp: 100,
      loginWindowMinutes: 30,
      pickClaimMinutes: 5,
      packUnpicked: 'refuse',
      overloadMaxWaitMs: 800,
      heavyOperationsMax: 3,
      backOfficeNice: 10,
      seedDemo: false,
      trustProxy: ['127.0.0.1'],
      corsOrigins: ['https://scanner.example.com', 'http://10.0.0.5:8080'],
      cspConnectSrc: ['https://api.example.com'],
      cheatCode: 'GEHEIM-2026',
      serveSourceMaps: true,
      requestTimeoutSeconds: 20,
      connectionTimeoutSeconds: 90,
      keepAliveTimeoutSeconds: 65,
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ PORT: '30.5' }, 'PORT must be a whole number'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must start with postgres://'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL like postgres://'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES must be a whole number from 1'],
    [{ SESSION_MAX_PER_USER: '0' }, 'SESSION_MAX_PER_USER must be a whole number from 1 to 10000, got "0"'],
    [{ LIVE_STREAMS_PER_LOGIN: '0' }, 'LIVE_STREAMS_PER_LOGIN must be a whole number from 1 to 100, got "0"'],
    [
      { SESSION_MAX_PER_USER: 'viele' },
      'SESSION_MAX_PER_USER must be a whole number from 1 to 10000, got "viele"',
    ],
    [{ PICK_CLAIM_MINUTES: '0' }, 'PICK_CLAIM_MINUTES must be a whole number from 1 to 1440, got "0"'],
    [{ PACK_UNPICKED: 'ja' }, 'PACK_UNPICKED must be "book" (the default'],
    [{ OVERLOAD_MAX_WAIT_MS: '5' }, 'OVERLOAD_MAX_WAIT_MS must be a whole number from 10 to 60000, got "5"'],
    [{ OVERLOAD_MAX_WAIT_MS: '0.5s' }, 'OVERLOAD_MAX_WAIT_MS must be a whole number from 10 to 60000'],
    [{ HEAVY_OPERATIONS_MAX: '0' }, 'HEAVY_OPERATIONS_MAX must be a whole number from 1 to 20, got "0"'],
    [{ BACK_OFFICE_NICE: '20' }, 'BACK_OFFICE_NICE must be a whole number from 0 to 19, got "20"'],
    [{ SEED_DEMO: 'ja' }, 'SEED_DEMO'],
    [{ SERVE_SOURCE_MAPS: 'yes' }, 'SERVE_SOURCE_MAPS'],
    [
      { REQUEST_TIMEOUT_SECONDS: '0' },
      'REQUEST_TIMEOUT_SECONDS must be a whole number from 1 to 600, got "0"',
    ],
    [{ REQUEST_TIMEOUT_SECONDS: '30s' }, 'REQUEST_TIMEOUT_SECONDS must be a whole number from 1 to 600'],
    [
      { CONNECTION_TIMEOUT_SECONDS: '-5' },
      'CONNECTION_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [
      { KEEP_ALIVE_TIMEOUT_SECONDS: '1.5' },
      'KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number from 1 to 3600',
    ],
    [
      { CORS_ORIGINS: 'https://ok.example, scanner.example.com' },
      'CORS_ORIGINS: "scanner.example.com" is not an origin',
    ],
    [{ CORS_ORIGINS: 'https://ok.example/path' }, 'is not an origin like https://scanner.example.com'],
    [{ CSP_CONNECT_SRC: "https://api.example 'unsafe-inline'" }, 'CSP_CONNECT_SRC'],
    [{ CHEAT_CODE: 'abc' }, 'CHEAT_CODE must be 6 to 200 characters'],
    [{ PRINTERS: 'Versand' }, 'PRINTERS: "Versand" is not name=host:port[,dpi]'],
    [{ PRINTERS: 'Versand=192.0.2.10' }, 'PRINTERS: "Versand=192.0.2.10" is not name=host:port[,dpi]'],
    [{ PRINTERS: 'Versand=192.0.2.10:70000' }, 'the port must be 1 to 65535'],
    [{ PRINTERS: 'Versand=192.0.2.10:9100,600' }, 'dpi must be 203 or 300'],
    [{ PRINTERS: 'A=h1:9100;a=h2:9100' }, 'the printer name "a" is given twice'],
    // Issue 39: a printer is no way into this machine or its network's services.
    [
      { PRINTERS: 'Db=192.0.2.10:5432' },
      'port 5432 is not allowed for printers (9100 is; add others to PRINTER_PORTS)',
    ],
    [{ PRINTERS: 'Self=127.0.0.1:9100' }, 'loopback addresses are refused for printers'],
    [{ PRINTERS: 'Self=localhost:9100' }, 'loopback addresses are refused'],
    [{ PRINTERS: 'Any=0.0.0.0:9100' }, 'unspecified addresses are refused'],
    [{ PRINTERS: 'Cloud=169.254.169.254:9100' }, 'metadata addresses are refused'],
    [{ PRINTERS: 'Six=[::1]:9100' }, 'loopback addresses are refused'],
    [
      { PRINTERS: 'Num=2130706433:9100' },
      'write an IPv4 address as four numbers (192.0.2.10), not as "2130706433"',
    ],
    [{ PRINTERS: 'Hex=0x7f000001:9100' }, 'write an IPv4 address as four numbers'],
    [
      { PRINTERS: 'Ver\u202Esand=192.0.2.10:9100' },
      'the name holds a control character or an invisible bidi character',
    ],
    [{ PRINTER_PORTS: '9100,http' }, 'PRINTER_PORTS: "http" is not a port from 1 to 65535'],
    [
      { PRINTER_ALLOWED_ADDRESSES: 'localhost' },
      'PRINTER_ALLOWED_ADDRESSES: "localhost" is not an IP address or range',
    ],
  ])('refuses %o with a clear English message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('forces every answered write of the embedded database to disk unless DURABILITY=off says otherwise', () => {
    expect(loadConfig({}).durability).toBe('full');
    expect(loadConfig({ DURABILITY: ' Full ' }).durability).toBe('full');
    expect(loadConfig({ DURABILITY: 'off' }).durability).toBe('off');
    expect(() => loadConfig({ DURABILITY: 'fast' })).toThrow(
      'DURABILITY must be "full" (the default: every answer waits until its booking is on disk) or "off"',
    );
    // PostgreSQL decides its durability itself: a setting that would silently do nothing is refused.
    expect(() =>
      loadConfig({ DURABILITY: 'off', DATABASE_URL: 'postgres://lager@db.intern:5432/lager' }),
    ).toThrow('DURABILITY=off applies to the embedded database only');
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/);
    }
  });

  it('reads PRINTERS: name=host:port[,dpi], several separated by ;', () => {
    expect(loadConfig({}).printers).toEqual([]);
    expect(
      loadConfig({
        PRINTERS: 'Versand=192.0.2.10:9100,203; Lager 2=[2001:db8::5]:9100,300;Büro=zebra.local:6101',
        PRINTER_PORTS: '6101',
      }).printers,
    ).toEqual([
      { name: 'Versand', host: '192.0.2.10', port: 9100, dpi: 203 },
      { name: 'Lager 2', host: '2001:db8::5', port: 9100, dpi: 300 },
      { name: 'Büro', host: 'zebra.local', port: 6101, dpi: 203 },
    ]);
  });

  it('allows a printer port beside 9100 and a blocked address only where PRINTER_PORTS and PRINTER_ALLOWED_ADDRESSES name them', () => {
    expect(loadConfig({}).printerRules).toEqual({ ports: [9100], allowedAddresses: [] });
    const config = loadConfig({
      PRINTERS: 'Proxy=127.0.0.1:3911;Gerät=[::1]:9100',
      PRINTER_PORTS: ' 3911, 6101 ',
      PRINTER_ALLOWED_ADDRESSES: '127.0.0.1, ::1/128',
    });
    expect(config.printerRules).toEqual({
      ports: [9100, 3911, 6101],
      allowedAddresses: ['127.0.0.1', '::1/128'],
    });
    expect(config.printers.map((p) => `${p.host}:${p.port}`)).toEqual(['127.0.0.1:3911', '::1:9100']);
    // Allowing one loopback address allows no other.
    expect(() =>
      loadConfig({ PRINTERS: 'Self=127.0.0.2:9100', PRINTER_ALLOWED_ADDRESSES: '127.0.0.1' }),
    ).toThrow('loopback addresses are refused for printers');
  });

  describe('TRUST_PROXY', () => {
    it.each([
      [undefined, false],
      ['', false],
      ['false', false],
      ['0', false],
      ['127.0.0.1', ['127.0.0.1']],
      [' 10.0.0.5 , 10.0.0.6 ', ['10.0.0.5', '10.0.0.6']],
      ['10.0.0.0/8,192.168.1.0/24', ['10.0.0.0/8', '192.168.1.0/24']],
      ['::1, fd00::/8', ['::1', 'fd00::/8']],
      ['loopback', ['loopback']],
      ['loopback, uniquelocal', ['loopback', 'uniquelocal']],
    ])('takes %o as %o', (value, expected) => {
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
    });

    it('refuses true, which trusts every hop: a client could pick its own address', () => {
      for (const value of ['true', 'TRUE', 'yes']) {
        expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      }
      expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
        "TRUST_PROXY=true would trust every X-Forwarded-For hop, so a client could choose its own address. Give the proxy's address instead: 127.0.0.1 for nginx or Caddy on this machine",
      );
    });

    it('refuses a number of proxies, which Fastify ignores (it cannot tell a proxy from a direct client)', () => {
      for (const value of ['1', '2', '100']) {
        expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(
          `TRUST_PROXY=${value}: a number of proxies cannot tell the proxy from a client that reaches this server directly, and Fastify ignores it. Give the proxy's address instead: 127.0.0.1`,
        );
      }
    });

    it.each([
      ['-1', 'TRUST_PROXY: "-1" is not a proxy address or range (e.g. 127.0.0.1, 10.0.0.0/8, ::1, loopback)'],
      ['1.5', 'TRUST_PROXY: "1.5" is'],
      ['10.0.0.300', 'TRUST_PROXY: "10.0.0.300" is'],
      ['10.0.0.0/33', 'TRUST_PROXY: "10.0.0.0/33" is'],
      ['::1/129', 'TRUST_PROXY: "::1/129" is'],
      ['proxy.example.com', 'TRUST_PROXY: "proxy.example.com" is'],
      ['127.0.0.1,,10.0.0.1', 'TRUST_PROXY: "" is'],
      ['1, 127.0.0.1', 'TRUST_PROXY: "1" is'],
      ['10.0.0.1 10.0.0.2', 'TRUST_PROXY: "10.0.0.1 10.0.0.2" is'],
    ])('refuses %o with a clear English message', (value, message) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
    });
  });
});
