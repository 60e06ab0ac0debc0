import fs from 'node:fs';
import os from 'node:os';

/**
 * Where the machine's cores went during a load: CPU seconds of the server, the database's processes and the
 * load generator (this process), read from /proc (Linux). On a machine where all three share a few cores, a
 * route's share of its database floor is bounded by what the other two take — this says how much that was.
 */

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux this runs on). */
const TICKS = 100;

/** A process's own user + system CPU seconds, or null when it is gone (or this is not Linux). */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces, inside parentheses): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** A process and its direct children (a postmaster's backends). */
export function withChildren(pid: number): number[] {
  const pids = [pid];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds per process now, of the processes `pids` names. */
function snapshot(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const s = cpuSecondsOf(pid);
    if (s !== null) seconds.set(pid, s);
  }
  return seconds;
}

export interface CoresUsed {
  /** Cores busy on average, by who: `server`, `database` (when it is a process of its own), `generator`. */
  byWho: Record<string, number>;
  /** The machine's cores. */
  cores: number;
}

/**
 * Runs `load` and measures the cores each party kept busy meanwhile. `parties`: their process ids, asked
 * before and after (a database's backends may come and go); this process is `self`.
 */
export async function measureCores<T>(
  parties: Record<string, () => number[]>,
  load: () => Promise<T>,
  /** What this process is during the load: the load generator, or the caller of the services (a floor). */
  self = 'generator',
): Promise<{ result: T; used: CoresUsed }> {
  const before = Object.fromEntries(Object.entries(parties).map(([who, pids]) => [who, snapshot(pids())]));
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const result = await load();
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const byWho: Record<string, number> = {};
  for (const [who, pids] of Object.entries(parties)) {
    const earlier = before[who] as Map<number, number>;
    let busy = 0;
    for (const [pid, now] of snapshot(pids())) busy += now - (earlier.get(pid) ?? 0);
    byWho[who] = busy / seconds;
  }
  byWho[self] = (own.user + own.system) / 1e6 / seconds;
  return { result, used: { byWho, cores: os.availableParallelism() } };
}

/** "server 0.93, database 0.61, generator 0.40 of 2 cores" */
export function describeCores(used: CoresUsed): string {
  const parts = Object.entries(used.byWho).map(([who, cores]) => `${who} ${cores.toFixed(2)}`);
  return `cores busy: ${parts.join(', ')} of ${used.cores}`;
}
