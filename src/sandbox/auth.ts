// Authentication as the API does it: the key travels in the x-api-key header; no key is a
// 401, a wrong key a 403, and the right key with another team in the path a 403 too. The
// messages tell the three cases apart and never repeat the key.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError } from './errors.ts';

export class Auth {
  private readonly keyDigest: Buffer;
  private readonly teamId: string;

  constructor(apiKey: string, teamId: string) {
    this.keyDigest = digest(apiKey);
    this.teamId = teamId.toLowerCase();
  }

  /** The presented API key, checked; throws 401 or 403. */
  checkKey(headers: IncomingHttpHeaders): string {
    const presented = presentedKey(headers);
    if (presented === undefined) {
      throw new SandboxError(
        401,
        'unauthorized',
        'No API key provided: send it in the x-api-key header.',
      );
    }
    if (!timingSafeEqual(digest(presented), this.keyDigest)) {
      throw new SandboxError(
        403,
        'forbidden',
        'The API key is invalid: the x-api-key header does not hold a key of this workspace.',
      );
    }
    return presented;
  }

  /** True when the request carries this sandbox's key (for routes that need none). */
  holdsKey(headers: IncomingHttpHeaders): boolean {
    const presented = presentedKey(headers);
    return presented !== undefined && timingSafeEqual(digest(presented), this.keyDigest);
  }

  /** Throws 403 when the team of the path is not the sandbox's team. */
  checkTeam(teamId: string): void {
    if (teamId.toLowerCase() !== this.teamId) {
      throw new SandboxError(403, 'forbidden', `The API key has no access to team ${teamId}.`);
    }
  }
}

/** The x-api-key header, or undefined when absent or empty. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers['x-api-key'];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  return value === undefined || value.trim() === '' ? undefined : value;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
