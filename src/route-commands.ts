// The ws command for a route of the API. The API's messages name its own routes ("Restore it
// with POST /v2/prism/…/restore"), which a user of ws does not type: the errors of commands
// (src/commands/common/error-wording.ts) and the reports of batches (src/bulk/report.ts)
// name the ws command that does the same instead.
import { isUuid } from './util/guards.ts';

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
