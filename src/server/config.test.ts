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
      DATABASE_POOL_SIZE: '20',
      LOG_LEVEL: 'warn',
      SESSION_IDLE_MINUTES: '60',
      SESSION_MAX_PER_USER: '50',
      BODY_LIMIT_KB: '128',
      LOGIN_MAX_FAILURES_PER_USER: '5',
      LOGIN_MAX_FAILURES_PER_IP: '100',
      LOGIN_WINDOW_MINUTES: '30',
      SEED_DEMO: 'false',
      TRUST_PROXY: 'true',
      CORS_ORIGINS: 'https://scanner.example.com, http://10.0.0.5:8080',
      CSP_CONNECT_SRC: 'https://api.example.com',
      CHEAT_CODE: 'GEHEIM-2026',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://lager:geheim@db.intern:5432/lager',
      dataDir: '/var/lib/lagerscanner',
      databasePoolSize: 20,
      logLevel: 'warn',
      sessionIdleMinutes: 60,
      sessionMaxPerUser: 50,
      bodyLimitBytes: 128 * 1024,
      loginMaxFailuresPerUser: 5,
      loginMaxFailuresPerIp: 100,
      loginWindowMinutes: 30,
      seedDemo: false,
      trustProxy: true,
      corsOrigins: ['https://scanner.example.com', 'http://10.0.0.5:8080'],
      cspConnectSrc: ['https://api.example.com'],
      cheatCode: 'GEHEIM-2026',
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
    [
      { SESSION_MAX_PER_USER: 'viele' },
      'SESSION_MAX_PER_USER must be a whole number from 1 to 10000, got "viele"',
    ],
    [{ SEED_DEMO: 'ja' }, 'SEED_DEMO'],
    [
      { CORS_ORIGINS: 'https://ok.example, scanner.example.com' },
      'CORS_ORIGINS: "scanner.example.com" is not an origin',
    ],
    [{ CORS_ORIGINS: 'https://ok.example/path' }, 'is not an origin like https://scanner.example.com'],
    [{ CSP_CONNECT_SRC: "https://api.example 'unsafe-inline'" }, 'CSP_CONNECT_SRC'],
    [{ CHEAT_CODE: 'abc' }, 'CHEAT_CODE must be 6 to 200 characters'],
  ])('refuses %o with a clear English message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/);
    }
  });
});
