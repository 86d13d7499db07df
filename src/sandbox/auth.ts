// Authentication as the API does it: the key travels in the x-api-key header; no key is a
// 401, a wrong key a 403, and the right key with another team in the path a 403 too. The
// messages tell the three cases apart and never repeat the key.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError } from './errors.ts';

/** A team of the sandbox as authentication sees it: its id and key, and what it holds. */
export interface AuthTeam<T> {
  readonly id: string;
  readonly key: string;
  readonly value: T;
}

/**
 * The teams of a sandbox, each with its own key: a key is checked against every team's (in
 * constant time each), and names the team its requests act for. The right key with another
 * team in the path is a 403, as the service answers a key without access to that team.
 */
export class Auth<T> {
  private readonly teams: { digest: Buffer; id: string; value: T }[];

  constructor(teams: readonly AuthTeam<T>[]) {
    this.teams = teams.map((t) => ({
      digest: digest(t.key),
      id: t.id.toLowerCase(),
      value: t.value,
    }));
  }

  /** The team of the presented API key; throws 401 (none) or 403 (no team's). */
  checkKey(headers: IncomingHttpHeaders): { key: string; team: T; id: string } {
    const presented = presentedKey(headers);
    if (presented === undefined) {
      throw new SandboxError(
        401,
        'unauthorized',
        'No API key provided: send it in the x-api-key header.',
      );
    }
    const team = this.find(presented);
    if (team === undefined) {
      throw new SandboxError(
        403,
        'forbidden',
        'The API key is invalid: the x-api-key header does not hold a key of this workspace.',
      );
    }
    return { key: presented, team: team.value, id: team.id };
  }

  /** The team of the key the request carries, if it carries one of them (routes that need none). */
  teamOf(headers: IncomingHttpHeaders): T | undefined {
    const presented = presentedKey(headers);
    return presented === undefined ? undefined : this.find(presented)?.value;
  }

  /** Throws 403 when the team of the path is not the key's. */
  checkTeam(keyTeamId: string, pathTeamId: string): void {
    if (pathTeamId.toLowerCase() !== keyTeamId) {
      throw new SandboxError(403, 'forbidden', `The API key has no access to team ${pathTeamId}.`);
    }
  }

  private find(presented: string) {
    const given = digest(presented);
    let found: (typeof this.teams)[number] | undefined;
    // Every team's key is compared, so the time does not tell which matched.
    for (const team of this.teams) if (timingSafeEqual(given, team.digest)) found ??= team;
    return found;
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
