import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  blockedAddress,
  checkedLookup,
  defaultPrinterRules,
  PrinterTargetBlocked,
  printerTargetProblem,
} from './printer-address.ts';

const rules = defaultPrinterRules;

describe('where a print job may go (issue 39)', () => {
  it('refuses this machine, unspecified, link-local, metadata and multicast addresses, in every spelling', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['169.254.10.3', 'link-local'],
      ['fe80::1', 'link-local'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.2.10', null],
      ['10.1.2.3', null],
      ['2001:db8::5', null],
      ['::ffff:192.0.2.10', null],
    ];
    expect(cases.map(([address]) => [address, blockedAddress(address, rules)])).toEqual(cases);
    for (const host of ['2130706433', '0x7f000001', '127.1', '0177.0.0.1', '10.0.0.010'])
      expect([host, printerTargetProblem(host, 9100, rules)]).toEqual([host, { problem: 'numericHost' }]);
    expect(printerTargetProblem('LOCALHOST', 9100, rules)).toEqual({ problem: 'address', kind: 'loopback' });
    expect(printerTargetProblem('zebra.localhost', 9100, rules)).toEqual({
      problem: 'address',
      kind: 'loopback',
    });
    expect(printerTargetProblem('zebra-3.lager.local', 9100, rules)).toBeNull();
    expect(printerTargetProblem('192.0.2.10', 22, rules)).toEqual({ problem: 'port', port: 22 });
    expect(printerTargetProblem('bad_host', 9100, rules)).toEqual({ problem: 'host' });
  });

  it('allows what PRINTER_ALLOWED_ADDRESSES names, and only that', () => {
    const proxy = { ports: [9100, 3911], allowedAddresses: ['127.0.0.1', '169.254.7.0/24'] };
    expect(printerTargetProblem('127.0.0.1', 3911, proxy)).toBeNull();
    expect(printerTargetProblem('localhost', 3911, proxy)).toBeNull();
    expect(blockedAddress('169.254.7.9', proxy)).toBeNull();
    expect(blockedAddress('127.0.0.2', proxy)).toBe('loopback');
    expect(blockedAddress('169.254.169.254', proxy)).toBe('metadata');
  });

  it('connects a job only to a checked address of the name: a name that resolves to this machine is refused', async () => {
    const resolving =
      (addresses: dns.LookupAddress[]) =>
      (_: string, __: dns.LookupAllOptions, done: (e: null, a: dns.LookupAddress[]) => void) =>
        done(null, addresses);
    const lookup = (addresses: dns.LookupAddress[]) =>
      new Promise<string>((resolve, reject) =>
        checkedLookup(rules, resolving(addresses))('zebra.lager', { family: 0 }, (error, address) =>
          error ? reject(error) : resolve(address as string),
        ),
      );
    await expect(lookup([{ address: '127.0.0.1', family: 4 }])).rejects.toBeInstanceOf(PrinterTargetBlocked);
    await expect(lookup([{ address: '169.254.169.254', family: 4 }])).rejects.toMatchObject({
      detail: { problem: 'address', kind: 'metadata' },
    });
    expect(
      await lookup([
        { address: '::1', family: 6 },
        { address: '192.0.2.10', family: 4 },
      ]),
    ).toBe('192.0.2.10');
  });
});
