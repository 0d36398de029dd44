/**
 * One-time sign-in links for the memory viewer. `serve --dev-user` (or an app) issues a login code
 * for one user and prints `http://127.0.0.1:8787/#login=<code>`; the page sends the code once
 * (`POST /api/session`) and gets a session token it keeps in `sessionStorage` and sends as a
 * bearer header. The code works once and expires in minutes, so a link left in terminal
 * scrollback or browser history is useless afterwards. The fragment never reaches a server log
 * or a Referer header.
 *
 * In memory, per process: restarting the server signs everyone out (a local tool, not a session
 * store; apps with their own sign-in use their own `authenticate` hook).
 */
import { randomBytes } from "node:crypto";
import { systemClock, type Clock } from "../controls/clock.js";
import { invalidInput } from "../errors.js";
import { digest, type AuthenticatedUser } from "./authentication.js";

export interface ViewerSessionsOptions {
  /** How long a login code may wait for its first use (default 10 minutes). */
  loginCodeTtlMs?: number;
  /** How long a session token is valid (default 12 hours). */
  sessionTtlMs?: number;
  clock?: Clock;
}

interface Entry {
  user: AuthenticatedUser;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * @example
 * const sessions = new ViewerSessions();
 * const { code } = sessions.issueLoginCode({ tenantId: "acme", userId: "alice" });
 * console.log(`${baseUrl}#login=${code}`);
 */
export class ViewerSessions {
  readonly loginCodeTtlMs: number;
  readonly sessionTtlMs: number;
  private readonly clock: Clock;
  private readonly codes = new Map<string, Entry>();
  private readonly sessions = new Map<string, Entry>();

  constructor(options: ViewerSessionsOptions = {}) {
    this.loginCodeTtlMs = options.loginCodeTtlMs ?? 10 * 60_000;
    this.sessionTtlMs = options.sessionTtlMs ?? 12 * 3_600_000;
    this.clock = options.clock ?? systemClock;
    if (!(this.loginCodeTtlMs >= 1000)) throw invalidInput("loginCodeTtlMs", "must be at least 1000 ms");
    if (!(this.sessionTtlMs >= 1000)) throw invalidInput("sessionTtlMs", "must be at least 1000 ms");
  }

  /** A one-time login code for this user, to put in a link's fragment (`#login=<code>`). */
  issueLoginCode(user: AuthenticatedUser): { code: string; expiresAt: Date } {
    this.prune();
    const code = randomBytes(24).toString("base64url");
    const expiresAt = this.clock.now().getTime() + this.loginCodeTtlMs;
    this.codes.set(digest(code), { user: { tenantId: user.tenantId, userId: user.userId }, expiresAt });
    return { code, expiresAt: new Date(expiresAt) };
  }

  /** Exchange a login code (consumed, valid or not) for a session token; null when unknown, used or expired. */
  exchange(code: string): { token: string; expiresAt: Date; user: AuthenticatedUser } | null {
    this.prune();
    const key = digest(code);
    const entry = this.codes.get(key);
    this.codes.delete(key);
    if (!entry || entry.expiresAt <= this.clock.now().getTime()) return null;
    const token = randomBytes(32).toString("base64url");
    const expiresAt = this.clock.now().getTime() + this.sessionTtlMs;
    this.sessions.set(digest(token), { user: entry.user, expiresAt });
    return { token, expiresAt: new Date(expiresAt), user: { ...entry.user } };
  }

  /** The user of a live session token, or null. */
  authenticate(token: string): AuthenticatedUser | null {
    const entry = this.sessions.get(digest(token));
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.sessions.delete(digest(token));
      return null;
    }
    return { ...entry.user };
  }

  /** End a session (sign out); false when the token is not a live session. */
  revoke(token: string): boolean {
    return this.sessions.delete(digest(token));
  }

  private prune(): void {
    const now = this.clock.now().getTime();
    for (const map of [this.codes, this.sessions]) {
      for (const [k, e] of map) if (e.expiresAt <= now) map.delete(k);
      // Bounded even if something issues codes in a loop: the oldest go first.
      while (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as string);
    }
  }
}
