// What the API says, in ws's words. The API's messages name its own routes ("Restore it
// with POST /v2/prism/…/restore"), which a user of ws does not type: errors of every
// command but `ws api` (whose users do type routes) are reworded here, once, on their way
// to the reporter. A 404 on a record, view or property named by id is said from the
// request that failed, whatever the service's wording; a route named in any other message
// becomes the ws command that does the same.
import { ApiError, ExitCode } from '../../errors.ts';
import { isUuid } from '../../util/guards.ts';

const SEGMENT = String.raw`[\w{}%-]+`;
/** `METHOD /v2/prism/TEAM/…`, as the API's messages name a route. */
const ROUTE = new RegExp(
  String.raw`\b(GET|POST|PUT|PATCH|DELETE) /v2/prism/${SEGMENT}((?:/${SEGMENT})*)`,
  'g',
);

const placeholder = (s: string) => /^\{.*\}$/.test(s);
const idOrWord = (s: string) => (placeholder(s) ? 'ID' : s);

/** The ws command for one route of the API (after the team id). */
function commandFor(method: string, path: string[]): string {
  const [type, second, third] = path;
  if (method === 'GET' && path.length === 1 && type === 'properties') return 'ws props list';
  if (method === 'GET' && path.length === 2 && type === 'imports')
    return `ws import status ${idOrWord(second!)}`;
  if (type === 'lists') {
    if (method === 'GET' && path.length === 1) return 'ws lists list';
    if (method === 'POST' && path.length === 1) return 'ws lists create';
    if (method === 'GET' && path.length === 2) return `ws lists get ${idOrWord(second!)}`;
  }
  // A view's pins: …/{type}/views/{viewId}/records/{objectId}.
  if (second === 'views' && path[3] === 'records' && path.length === 5 && third !== undefined) {
    const verb = method === 'POST' ? 'pin' : method === 'DELETE' ? 'unpin' : undefined;
    if (verb !== undefined)
      return `ws views ${verb} ${type} ${idOrWord(third)} ${idOrWord(path[4]!)}`;
  }
  if (type !== undefined && !placeholder(type)) {
    if (method === 'GET' && path.length === 1) return `ws records list ${type}`;
    if (method === 'POST' && path.length === 1) return `ws records create ${type}`;
    if (method === 'GET' && second === 'properties' && path.length === 2)
      return `ws props list ${type}`;
    if (method === 'GET' && second === 'views' && path.length === 2) return `ws views list ${type}`;
    if (method === 'POST' && second === 'query' && path.length === 2)
      return `ws records query ${type}`;
    if (second !== undefined && (isUuid(second) || placeholder(second))) {
      const id = idOrWord(second);
      if (path.length === 2) {
        if (method === 'GET') return `ws records get ${type} ${id}`;
        if (method === 'PATCH') return `ws records update ${type} ${id}`;
        if (method === 'DELETE') return `ws records delete ${type} ${id}`;
      }
      if (method === 'POST' && (third === 'restore' || third === 'duplicate') && path.length === 3)
        return `ws records ${third} ${type} ${id}`;
    }
  }
  return `ws api ${method} '/v2/prism/{teamId}${path.map((s) => `/${s}`).join('')}'`;
}

/** Routes of the API named in a message, as the ws commands that do the same. */
export function routesInWsWords(text: string): string {
  return text.replace(ROUTE, (_all, method: string, rest: string) => {
    const path = rest.split('/').filter((s) => s !== '');
    return `\`${commandFor(method, path)}\``;
  });
}

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
  return new ApiError({
    status: err.status,
    ...(err.apiCode ? { code: err.apiCode } : {}),
    message,
    ...(err.requestId ? { requestId: err.requestId } : {}),
    errors,
    details: err.details,
    method: err.method,
    url: err.url,
    ...(hint !== undefined ? { hint } : {}),
    exitCode: err.exitCode,
  });
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
  return new ApiError({
    status: err.status,
    ...(err.apiCode ? { code: err.apiCode } : {}),
    message: err.message,
    ...(err.requestId ? { requestId: err.requestId } : {}),
    errors: err.errors,
    details: err.details,
    method: err.method,
    url: err.url,
    hint: err.hint === undefined ? hint : `${hint} ${err.hint}`,
    exitCode: err.exitCode,
  });
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
