import type { Language } from '../../contract/i18n/languages.ts';
import type { AuthUser } from './sessions.ts';

/**
 * Logins this server instance checked in the last moments (decision 7). A lookup is one short query; checking
 * the login against the database first doubled the round trips of every scan. So a token the database
 * accepted is trusted for `ttlMs` without asking again. What that costs: a logout or a deactivated user on
 * *another* instance (or straight in the database) takes effect here within `ttlMs`; a logout through this
 * instance takes effect at once. `ttlMs` 0 switches the cache off.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: AuthUser; until: number }>();
  private readonly forgetListeners = new Set<(sessionId: number) => void>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = performance.now.bind(performance),
    /** A bound on memory: a full cache drops its oldest entry (each entry is ≈ 200 bytes). */
    private readonly maxEntries = 20_000,
  ) {}

  get(tokenHash: string): AuthUser | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (entry.until > this.now()) return entry.user;
    this.entries.delete(tokenHash);
    return null;
  }

  remember(tokenHash: string, user: AuthUser): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(tokenHash); // re-inserted at the end: the oldest entries stay first
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { user, until: this.now() + this.ttlMs });
  }

  /** A logout through this instance: the session is refused from the next request on. */
  forgetSession(sessionId: number): void {
    for (const [tokenHash, entry] of this.entries) {
      if (entry.user.sessionId === sessionId) this.entries.delete(tokenHash);
    }
    for (const listener of this.forgetListeners) listener(sessionId);
  }

  /** A user chose another language (decision 35): their logins here answer in it from the next request on. */
  changeLanguage(userId: number, language: Language): void {
    for (const entry of this.entries.values()) if (entry.user.id === userId) entry.user.language = language;
  }

  /**
   * Hears every session this instance ended (a logout, a login past the cap): a live stream of that login
   * ends at once instead of at its next check. Answers the unsubscribe.
   */
  onForget(listener: (sessionId: number) => void): () => void {
    this.forgetListeners.add(listener);
    return () => this.forgetListeners.delete(listener);
  }

  get size(): number {
    return this.entries.size;
  }
}
