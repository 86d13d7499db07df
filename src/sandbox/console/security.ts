// Who may use the console, since it listens on a developer's machine:
//
//   - Host: every request's Host header must name the address the sandbox listens on, as
//     a loopback name (localhost, 127.x, [::1]) when it listens on loopback, or the --host
//     given, or an IP literal when it listens on every address: a page of another site that
//     a DNS rebinding points at 127.0.0.1 sends its own host name, and is refused.
//   - Sign-in: `ws sandbox open` asks the sandbox (with its API key, on a control route) for
//     a one-time code, valid TOKEN_TTL_MS, used once; posting it to /console/login makes a
//     session, kept in an HttpOnly, SameSite=Strict cookie scoped to /console. The code is
//     never in a URL (it is posted), and the key never reaches the browser.
//   - CSRF: every state change carries the session's CSRF token in a header (X-CSRF-Token),
//     which only a page of the console can read (GET /console/api/session: no CORS header is
//     ever sent, so another origin cannot read it).

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** How long a one-time sign-in code stays valid. */
export const TOKEN_TTL_MS = 2 * 60 * 1000;
/** Wrong codes accepted before every pending code is dropped. */
const MAX_WRONG_CODES = 20;
/** Sessions kept at once (the oldest dropped first). */
const MAX_SESSIONS = 100;

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';

export interface Session {
  readonly id: string;
  readonly csrf: string;
  readonly createdAt: number;
}

/** A code like `K7QX-2MHD-9RTB`: 60 bits, easy to read and type. */
function newCode(): string {
  const bytes = randomBytes(12);
  let code = '';
  for (let i = 0; i < 12; i++) {
    if (i > 0 && i % 4 === 0) code += '-';
    code += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length];
  }
  return code;
}

/** A code as typed: case and separators do not matter. */
function normalCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class ConsoleAuth {
  /** Pending codes (normalised) and when each expires. */
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();
  private wrong = 0;
  private readonly now: () => number;
  /** The session cookie's name: one per port (browsers do not keep cookies per port). */
  cookieName = 'ws_console';

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** The port the sandbox listens on names the cookie. */
  bindPort(port: number): void {
    this.cookieName = `ws_console_${port}`;
  }

  /** A new one-time sign-in code. */
  issueCode(): { code: string; expiresAt: number } {
    this.sweep();
    const code = newCode();
    const expiresAt = this.now() + TOKEN_TTL_MS;
    this.codes.set(normalCode(code), expiresAt);
    return { code, expiresAt };
  }

  /** Trade a code for a new session; undefined when it is not a pending code. */
  signIn(code: string): Session | undefined {
    this.sweep();
    const key = normalCode(code);
    const expires = this.codes.get(key);
    if (expires === undefined) {
      // Guessing is bounded: past MAX_WRONG_CODES, every pending code is dropped.
      if (++this.wrong >= MAX_WRONG_CODES) {
        this.codes.clear();
        this.wrong = 0;
      }
      return undefined;
    }
    this.codes.delete(key);
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      createdAt: this.now(),
    };
    this.sessions.set(session.id, session);
    if (this.sessions.size > MAX_SESSIONS) {
      this.sessions.delete(this.sessions.keys().next().value!);
    }
    return session;
  }

  signOut(session: Session): void {
    this.sessions.delete(session.id);
  }

  /** The session of the request's cookie, if any. */
  sessionOf(cookieHeader: string | undefined): Session | undefined {
    const id = cookieValue(cookieHeader, this.cookieName);
    return id === undefined ? undefined : this.sessions.get(id);
  }

  /** True when `token` is the session's CSRF token. */
  csrfHolds(session: Session, token: string | undefined): boolean {
    return token !== undefined && sameText(token, session.csrf);
  }

  /** The Set-Cookie value that keeps `session`. */
  cookie(session: Session): string {
    return `${this.cookieName}=${session.id}; Path=/console; HttpOnly; SameSite=Strict`;
  }

  /** The Set-Cookie value that drops the session cookie. */
  expiredCookie(): string {
    return `${this.cookieName}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0`;
  }

  private sweep(): void {
    const now = this.now();
    for (const [code, expires] of this.codes) if (expires <= now) this.codes.delete(code);
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The check of the Host header for a sandbox listening on `listenHost`:`port` (the --host
 * given, or the address bound).
 */
export function hostChecker(
  listenHost: string,
  port: number,
): (host: string | undefined) => boolean {
  const bare = listenHost.replace(/^\[|\]$/g, '');
  const everywhere = bare === '0.0.0.0' || bare === '::';
  return (header) => {
    if (header === undefined) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header.trim().toLowerCase());
    if (m === null) return false;
    const name = m[1]!.replace(/^\[|\]$/g, '');
    if (m[2] !== undefined && Number(m[2]) !== port) return false;
    if (m[2] === undefined && port !== 80) return false;
    if (name === bare.toLowerCase()) return true;
    if (isLoopback(bare) || everywhere) {
      // A loopback name reaches a loopback (or every-address) listener; an IP literal can
      // not be rebound, so it reaches one that listens everywhere.
      if (isLoopback(name)) return true;
      if (everywhere && isIP(name) !== 0) return true;
    }
    return false;
  };
}
