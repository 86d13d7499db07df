// Method + path-template routing.
//
// The raw request path is split on '/' BEFORE percent-decoding, and each segment is decoded
// on its own, so an encoded '/', '?', '#', '%', '..' or non-ASCII character stays inside
// its segment and never changes which route matches.
//
// Templates: '/v2/prism/{teamId}/{objectType}/count'. `{name}` matches one non-empty
// segment; a final `{...name}` matches the remaining segments (zero or more). The most
// specific template wins (see Router.match).

import { SandboxError } from './errors.ts';

export type MatchResult<R> =
  | { kind: 'found'; route: R; params: Record<string, string>; rest: string[] }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

interface Entry<R> {
  route: R;
  paramNames: string[];
}

interface Terminal<R> {
  /** Keyed by upper-case method, or '*' for any method. */
  methods: Map<string, Entry<R>>;
}

interface Node<R> {
  literals: Map<string, Node<R>>;
  param?: Node<R>;
  /** Routes ending here. */
  here?: Terminal<R>;
  /** Routes whose `{...rest}` starts here. */
  rest?: Terminal<R>;
}

interface Candidate<R> {
  terminal: Terminal<R>;
  captures: string[];
  rest: string[];
  /** Per segment: '2' literal, '1' parameter, '0' taken by a rest match. */
  rank: string;
  literals: number;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class Router<R> {
  private readonly root: Node<R> = { literals: new Map() };

  add(method: string, template: string, route: R): void {
    if (!template.startsWith('/'))
      throw new Error(`Route template must start with '/': ${template}`);
    const parts = template.slice(1).split('/');
    const paramNames: string[] = [];
    let node = this.root;
    let terminal: Terminal<R> | undefined;
    for (const [i, part] of parts.entries()) {
      const restName = /^\{\.\.\.([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part)?.[1];
      const paramName = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(part)?.[1];
      if (restName !== undefined) {
        if (i !== parts.length - 1) {
          throw new Error(`A {...rest} segment must come last in route template ${template}`);
        }
        paramNames.push(restName);
        node.rest ??= { methods: new Map() };
        terminal = node.rest;
      } else if (paramName !== undefined) {
        if (paramNames.includes(paramName)) {
          throw new Error(`Parameter {${paramName}} appears twice in route template ${template}`);
        }
        paramNames.push(paramName);
        node.param ??= { literals: new Map() };
        node = node.param;
      } else {
        if (part === '' || /[{}]/.test(part)) {
          throw new Error(`Invalid segment '${part}' in route template ${template}`);
        }
        let next = node.literals.get(part);
        if (next === undefined) {
          next = { literals: new Map() };
          node.literals.set(part, next);
        }
        node = next;
      }
    }
    if (terminal === undefined) {
      node.here ??= { methods: new Map() };
      terminal = node.here;
    }
    const key = method.toUpperCase();
    if (terminal.methods.has(key)) throw new Error(`Duplicate route: ${key} ${template}`);
    terminal.methods.set(key, { route, paramNames });
  }

  /**
   * Match decoded path segments (see splitPath). The most specific template wins: the one
   * with the most literal segments, then the one whose first literal comes earliest (so
   * `/v2/prism/{teamId}/imports/{jobId}` wins over the record routes; the contract's tests
   * route every operation of openapi.json through it). Its methods decide: the request's
   * method, '*', or for HEAD the GET route; else method_not_allowed.
   */
  match(method: string, segments: readonly string[]): MatchResult<R> {
    const candidates: Candidate<R>[] = [];
    walk(this.root, segments, 0, [], '', candidates);
    if (candidates.length === 0) return { kind: 'not_found' };
    let best = candidates[0]!;
    for (const candidate of candidates) if (outranks(candidate, best)) best = candidate;
    const wanted = method.toUpperCase();
    const { methods } = best.terminal;
    const entry =
      methods.get(wanted) ??
      methods.get('*') ??
      (wanted === 'HEAD' ? methods.get('GET') : undefined);
    if (entry === undefined) {
      const allow = new Set<string>();
      for (const m of methods.keys()) {
        allow.add(m);
        if (m === 'GET') allow.add('HEAD');
      }
      return {
        kind: 'method_not_allowed',
        allow: [...allow].sort((a, b) => methodRank(a) - methodRank(b) || a.localeCompare(b)),
      };
    }
    const params: Record<string, string> = {};
    for (const [i, value] of best.captures.entries()) params[entry.paramNames[i]!] = value;
    return { kind: 'found', route: entry.route, params, rest: best.rest };
  }
}

/** More literal segments first; then the earliest literal; a parameter before a rest match. */
function outranks<R>(a: Candidate<R>, b: Candidate<R>): boolean {
  if (a.literals !== b.literals) return a.literals > b.literals;
  if (a.rank !== b.rank) return a.rank > b.rank;
  return false;
}

function methodRank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i === -1 ? METHOD_ORDER.length : i;
}

function walk<R>(
  node: Node<R>,
  segments: readonly string[],
  i: number,
  captures: string[],
  rank: string,
  out: Candidate<R>[],
): void {
  if (i === segments.length) {
    if (node.here !== undefined) out.push(candidate(node.here, captures, [], rank));
    if (node.rest !== undefined) out.push(candidate(node.rest, captures, [], rank));
    return;
  }
  const segment = segments[i]!;
  const literal = node.literals.get(segment);
  if (literal !== undefined) walk(literal, segments, i + 1, captures, `${rank}2`, out);
  if (node.param !== undefined && segment !== '') {
    walk(node.param, segments, i + 1, [...captures, segment], `${rank}1`, out);
  }
  if (node.rest !== undefined) {
    const rest = segments.slice(i);
    out.push(candidate(node.rest, captures, rest, rank + '0'.repeat(rest.length)));
  }
}

function candidate<R>(
  terminal: Terminal<R>,
  captures: string[],
  rest: string[],
  rank: string,
): Candidate<R> {
  let literals = 0;
  for (const c of rank) if (c === '2') literals++;
  return { terminal, captures, rest, rank, literals };
}

export interface RequestTarget {
  /** The path exactly as sent, without the query string. */
  rawPath: string;
  /** Path segments after the leading '/', each percent-decoded on its own. */
  segments: string[];
  /** Query parameters; a repeated name gives an array. */
  query: Record<string, string | string[]>;
}

/** Split a request target ('/a/b%2Fc?x=1') into raw path, decoded segments and query. */
export function parseTarget(url: string): RequestTarget {
  let target = url;
  if (!target.startsWith('/')) {
    // Absolute form ('http://host/path'), as a proxy would send it.
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
    if (scheme === null)
      throw new SandboxError(400, 'invalid_request', `Invalid request target '${url}'.`);
    target = target.slice(scheme[0].length);
    if (!target.startsWith('/')) target = '/' + target;
  }
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const queryString = q === -1 ? '' : target.slice(q + 1);
  return { rawPath, segments: splitPath(rawPath), query: parseQuery(queryString) };
}

/** Split a raw path on '/' and percent-decode each segment separately. */
export function splitPath(rawPath: string): string[] {
  return rawPath
    .slice(1)
    .split('/')
    .map((segment, i) => {
      const decoded = decodeSegment(segment);
      if (decoded === undefined) {
        throw new SandboxError(
          400,
          'invalid_request',
          `Path segment ${i + 1} ('${segment}') is not valid percent-encoded UTF-8.`,
        );
      }
      return decoded;
    });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Percent-decode one path segment to UTF-8 text. Characters the HTTP parser handed over as
 * raw bytes (code points up to 0xFF) are taken as bytes too. Undefined when the segment
 * holds a malformed escape or the bytes are not UTF-8.
 */
export function decodeSegment(segment: string): string | undefined {
  if (!/[%\u0080-\uffff]/.test(segment)) return segment;
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code === 0x25) {
      const hex = segment.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (code <= 0xff) {
      bytes.push(code);
    } else {
      // Not something an HTTP parser produces; keep the character as UTF-8.
      const char = String.fromCodePoint(segment.codePointAt(i)!);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length - 1;
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

function parseQuery(queryString: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (queryString === '') return query;
  for (const [name, value] of new URLSearchParams(queryString)) {
    const existing = Object.hasOwn(query, name) ? query[name] : undefined;
    if (Array.isArray(existing)) existing.push(value);
    else setOwn(query, name, existing === undefined ? value : [existing, value]);
  }
  return query;
}

/** Assign an own property even for names like '__proto__' that plain assignment mishandles. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
