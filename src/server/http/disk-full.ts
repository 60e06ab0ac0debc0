/**
 * A full disk under the database: PostgreSQL (and PGlite) refuse the write with SQLSTATE 53100 and roll the
 * transaction back, so nothing is half-written. What the operator needs is a log line that says so and a
 * readiness probe that takes the instance out while it lasts. Readiness is false for a while after the last
 * such error and comes back by itself: when space was freed, the next write works; when not, it fails again
 * and readiness turns false again.
 */
export const DISK_FULL = '53100';

export class DiskFullWatch {
  private until = 0;

  constructor(
    private readonly holdMs = 30_000,
    private readonly now = () => Date.now(),
  ) {}

  /** True (and remembered) when the error is the database's disk-full error. */
  note(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== DISK_FULL) return false;
    this.until = this.now() + this.holdMs;
    return true;
  }

  get recentlyFull(): boolean {
    return this.now() < this.until;
  }
}
