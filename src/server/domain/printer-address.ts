import dns from 'node:dns';
import net from 'node:net';

/**
 * Where the server may send a print job (issue 39): a printer is an address and a port the server connects
 * to on a worker's tap, so an unchecked one makes the server a port scanner of its own machine and network
 * ("printer" 127.0.0.1:5432, the cloud's metadata service at 169.254.169.254). Allowed: the port 9100 (a
 * Zebra's raw port) and those PRINTER_PORTS adds; any address but this machine (loopback, unspecified),
 * link-local and the metadata services, multicast and broadcast — unless PRINTER_ALLOWED_ADDRESSES names
 * the address (a print proxy on this machine). A host name is checked again for every job on the addresses
 * it resolves to, and the job goes to the address checked (a name that resolves elsewhere later is
 * caught then).
 */

/** The raw port of Zebra (and most label) printers: always allowed. */
export const RAW_PRINTER_PORT = 9100;

/** Why an address is no printer's. */
export type BlockedKind = 'loopback' | 'unspecified' | 'link-local' | 'metadata' | 'multicast' | 'broadcast';

const BLOCKED: [BlockedKind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];
const blocked = BLOCKED.map(([kind, address, prefix, family]) => {
  const list = new net.BlockList();
  list.addSubnet(address, prefix, family);
  return { kind, list };
});

/** PRINTER_PORTS and PRINTER_ALLOWED_ADDRESSES, read once. */
export interface PrinterRules {
  /** Ports a printer may have (9100 and PRINTER_PORTS). */
  ports: number[];
  /** Addresses and CIDR ranges allowed although blocked (PRINTER_ALLOWED_ADDRESSES), as written. */
  allowedAddresses: string[];
}

export const defaultPrinterRules: PrinterRules = { ports: [RAW_PRINTER_PORT], allowedAddresses: [] };

/** An address or CIDR range of PRINTER_ALLOWED_ADDRESSES: `127.0.0.1`, `10.9.0.0/16`, `::1`. */
export function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function allowList(rules: PrinterRules): net.BlockList {
  const list = new net.BlockList();
  for (const entry of rules.allowedAddresses) {
    const [address = '', prefix] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** Why this IP address may not be a printer's under `rules`, or null when it may. */
export function blockedAddress(address: string, rules: PrinterRules): BlockedKind | null {
  const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const hit = blocked.find((b) => b.list.check(address, family));
  if (!hit) return null;
  return allowList(rules).check(address, family) ? null : hit.kind;
}

/** What is wrong with a printer's host and port, or null. */
export type TargetProblem =
  | { problem: 'port'; port: number }
  | { problem: 'host' }
  | { problem: 'numericHost' }
  | { problem: 'address'; kind: BlockedKind };

/**
 * Checks a printer's host and port as given (the admin's form, PRINTERS): the port allowed; a host name
 * of letters, digits, dots and hyphens or an IP address; a name that a resolver would read as a number
 * (`2130706433`, `0x7f000001`, `127.1`: all 127.0.0.1) refused — an IPv4 address only as 192.0.2.10; an IP
 * address, or `localhost` (always this machine), not blocked. Names are checked again when a job is sent.
 */
export function printerTargetProblem(host: string, port: number, rules: PrinterRules): TargetProblem | null {
  if (!rules.ports.includes(port)) return { problem: 'port', port };
  const version = net.isIP(host);
  if (version !== 0) {
    const kind = blockedAddress(host, rules);
    return kind ? { problem: 'address', kind } : null;
  }
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(host)) return { problem: 'host' };
  // A top-level label is never all digits (RFC 3696), nor is a hex number one: such a name is an address
  // in one of the forms inet_aton reads.
  const last = host.split('.').at(-1) ?? '';
  if (/^(?:\d+|0x[0-9a-f]*)$/i.test(last)) return { problem: 'numericHost' };
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    const kind = blockedAddress('127.0.0.1', rules) && blockedAddress('::1', rules);
    return kind ? { problem: 'address', kind } : null;
  }
  return null;
}

/** A job's connection was refused before it was made: the printer's address or port is blocked. */
export class PrinterTargetBlocked extends Error {
  constructor(readonly detail: TargetProblem) {
    super(`printer target blocked: ${JSON.stringify(detail)}`);
    this.name = 'PrinterTargetBlocked';
  }
}

/**
 * `net.connect`'s `lookup` for a print job: resolves the name, drops every blocked address, and fails with
 * PrinterTargetBlocked when none is left — so the socket only ever connects to an address checked here.
 */
export function checkedLookup(rules: PrinterRules, resolve: Resolve = dns.lookup): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const list = addresses;
      const allowed = list.filter((a) => blockedAddress(a.address, rules) === null);
      const first = list[0];
      if (allowed.length === 0 && first) {
        const kind = blockedAddress(first.address, rules) ?? 'loopback';
        callback(new PrinterTargetBlocked({ problem: 'address', kind }), '', 4);
        return;
      }
      if ((options as { all?: boolean }).all) (callback as unknown as AllCallback)(null, allowed);
      else callback(null, allowed[0]?.address ?? '', allowed[0]?.family ?? 4);
    });
  };
}
type AllCallback = (error: Error | null, addresses: dns.LookupAddress[]) => void;
/** dns.lookup with `all: true` (tests give a resolver of their own). */
type Resolve = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;
