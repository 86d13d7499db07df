// What the API says, in ws's words. The API's messages name its own routes ("Restore it
// with POST /v2/prism/…/restore"), which a user of ws does not type: errors of every
// command but `ws api` (whose users do type routes) are reworded here, once, on their way
// to the reporter. A 404 on a record, view or property named by id is said from the
// request that failed, whatever the service's wording; a route named in any other message
// becomes the ws command that does the same (src/route-commands.ts).
import { ApiError, ExitCode } from '../../errors.ts';
import { routesInWsWords } from '../../route-commands.ts';
import { isUuid } from '../../util/guards.ts';

/** What a 404 on this request was looking for, said by ws; undefined for other requests. */
function notFoundInWsWords(err: ApiError): { message: string; hint: string } | undefined {
  let segments: string[];
  try {
    segments = new URL(err.url).pathname
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [v2, prism, , type, second, third, ...more] = segments;
  if (v2 !== 'v2' || prism !== 'prism' || type === undefined || second === undefined)
    return undefined;
  if (type === 'lists') {
    return isUuid(second) && third === undefined
      ? { message: `No list has the id ${second}.`, hint: 'List them with `ws lists list`.' }
      : undefined;
  }
  if (isUuid(second) && more.length === 0) {
    const suffix = third ?? '';
    if (!['', 'restore', 'duplicate', 'grant'].includes(suffix)) return undefined;
    if (/\bdeleted\b/i.test(err.message) && suffix !== 'restore') {
      return {
        message: `The ${type} record ${second} is deleted.`,
        hint: `Restore it with \`ws records restore ${type} ${second}\`.`,
      };
    }
    return {
      message: `No ${type} record has the id ${second}.`,
      hint: `Find ids with \`ws records list ${type} --fields id\` (with --deleted, deleted records too).`,
    };
  }
  if (second === 'views' && third !== undefined && more.length === 0) {
    return {
      message: `No ${type} view has the id ${third}.`,
      hint: `List the ${type} views with \`ws views list ${type}\`.`,
    };
  }
  if (second === 'properties' && third !== undefined && more.length === 0) {
    return {
      message: `No ${type} property has the id ${third}.`,
      hint: `List the ${type} properties with \`ws props list ${type}\`.`,
    };
  }
  return undefined;
}

/** Codes of errors ws words itself, about the request that failed (which they may name). */
const EXPLAINED = new Set(['operation_unavailable', 'webhooks_unavailable']);

/** The error to report for a command other than `ws api`: an ApiError in ws's words. */
export function inWsWords(err: unknown): unknown {
  if (!(err instanceof ApiError) || EXPLAINED.has(err.apiCode ?? '')) return err;
  // Only a plain not-found: one ws already explained (a service without an operation) stays.
  const found =
    err.status === 404 && err.exitCode === ExitCode.notFound ? notFoundInWsWords(err) : undefined;
  const message = found?.message ?? routesInWsWords(err.message);
  const hint = found?.hint ?? (err.hint === undefined ? undefined : routesInWsWords(err.hint));
  const errors = err.errors.map((e) => ({ ...e, message: routesInWsWords(e.message) }));
  if (
    message === err.message &&
    hint === err.hint &&
    errors.every((e, i) => e.message === err.errors[i]!.message)
  ) {
    return err;
  }
  return err.with({ message, hint, errors });
}

/**
 * A 403 (the key was refused) whose key or team id came from an environment variable:
 * the hint says which, as it overrides the profile's value and is easily forgotten.
 */
export function withSources(
  err: ApiError,
  creds: { profile: string | undefined; sources: { apiKey: string; teamId: string } },
): ApiError {
  if (EXPLAINED.has(err.apiCode ?? '')) return err;
  const fromEnv = [creds.sources.apiKey, creds.sources.teamId].filter((s) => s.startsWith('WS_'));
  if (fromEnv.length === 0) return err;
  const which = fromEnv
    .map((v) => (v === 'WS_API_KEY' ? 'the key in WS_API_KEY' : 'the team id in WS_TEAM_ID'))
    .join(' and ');
  const one = fromEnv.length === 1;
  const hint =
    creds.profile === undefined
      ? `${capitalized(which)} ${one ? 'was' : 'were'} used: check ${one ? 'it' : 'them'}.`
      : `${capitalized(which)} ${one ? 'was' : 'were'} used, overriding profile ${creds.profile}'s: check ${one ? 'it' : 'them'}, or unset ${fromEnv.join(' and ')} to use the profile's.`;
  return err.with({ hint: err.hint === undefined ? hint : `${hint} ${err.hint}` });
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
