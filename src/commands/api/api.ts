import { promises as fs } from 'node:fs';
import type { ApiResponse } from '../../api/client.ts';
import { reason } from '../../api/errors.ts';
import { type PageOf, paginate } from '../../api/paginate.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readStdin } from '../../io/stdin.ts';
import { plural } from '../../output/plural.ts';
import { createRowWriter } from '../../output/render.ts';
import { buildBody, parseHeader, toQuery } from './fields.ts';

export interface ApiOptions {
  method: string;
  path: string;
  fields: string[];
  input?: string | undefined;
  headers: string[];
  include: boolean;
  paginate: boolean;
  idempotencyKey?: string | undefined;
  /** Said on stderr before the request (an old flag that still works). */
  warnings?: string[] | undefined;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

function splitPath(path: string): { path: string; query: Record<string, string | string[]> } {
  if (/^[a-z]+:\/\//i.test(path)) {
    throw new UsageError(
      `"${path}" is a full URL; give the path below the base URL.`,
      "For example: ws api GET '/v2/prism/{teamId}/contact/count'",
    );
  }
  const q = path.indexOf('?');
  const query: Record<string, string | string[]> = {};
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(path.slice(q + 1))) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
  }
  const p = q >= 0 ? path.slice(0, q) : path;
  return { path: p.startsWith('/') ? p : `/${p}`, query };
}

function printHead(deps: Deps, res: ApiResponse): void {
  deps.io.println(`HTTP/1.1 ${res.status} ${reason(res.status)}`.trimEnd());
  for (const [k, v] of Object.entries(res.headers)) deps.io.println(`${k}: ${v}`);
  deps.io.println();
}

function printBody(deps: Deps, res: ApiResponse): void {
  if (res.text === '') return;
  if (res.body === undefined) {
    deps.io.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
    return;
  }
  const compact = deps.format === 'ndjson';
  deps.io.println(compact ? JSON.stringify(res.body) : JSON.stringify(res.body, null, 2));
}

export async function run(opts: ApiOptions, deps: Deps): Promise<void> {
  for (const w of opts.warnings ?? []) deps.io.warn(w);
  const method = opts.method.toUpperCase();
  if (!METHODS.includes(method)) {
    throw new UsageError(
      `"${opts.method}" is not an HTTP method.`,
      `Use one of: ${METHODS.join(', ')}.`,
    );
  }
  if (deps.fields)
    throw new UsageError('--fields does not apply to `ws api`; it prints the answer as it comes.');
  if (opts.paginate && opts.include)
    throw new UsageError('--paginate and -i cannot be used together.');
  if (opts.paginate && method !== 'GET' && method !== 'POST') {
    throw new UsageError(
      '--paginate follows next_cursor on GET list endpoints and POST query endpoints only.',
    );
  }
  const target = splitPath(opts.path);
  const headers: Record<string, string> = {};
  for (const h of opts.headers) {
    const [k, v] = parseHeader(h);
    headers[k] = v;
  }
  const fields = buildBody(opts.fields);
  let query: Record<string, string | string[]> = { ...target.query };
  let body: Record<string, unknown> | undefined;
  let rawBody: string | undefined;
  if (opts.input !== undefined) {
    rawBody =
      opts.input === '-'
        ? await readStdin(deps.io, 'The request body on stdin', { signal: deps.signal })
        : await fs.readFile(opts.input, 'utf8').catch((e: NodeJS.ErrnoException) => {
            throw new UsageError(
              `Cannot read --input ${opts.input}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`,
            );
          });
    query = { ...query, ...toQuery(fields) };
    if (opts.paginate) {
      try {
        body = JSON.parse(rawBody) as Record<string, unknown>;
        rawBody = undefined;
      } catch {
        throw new UsageError(
          '--paginate needs a JSON body to carry the cursor, and --input is not valid JSON.',
        );
      }
    }
  } else if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
    query = { ...query, ...toQuery(fields) };
  } else if (opts.fields.length > 0) {
    body = fields;
  }

  const client = await deps.client();
  if (!opts.paginate) {
    const res = await client.request({
      method,
      path: target.path,
      query,
      ...(rawBody !== undefined ? { rawBody } : body !== undefined ? { body } : {}),
      headers,
      idempotencyKey: opts.idempotencyKey,
      signal: deps.signal,
      acceptErrors: true,
      anyBody: true,
    });
    const failed = res.status < 200 || res.status >= 300;
    if (opts.include) printHead(deps, res);
    if (!failed || opts.include) printBody(deps, res);
    if (failed) throw client.errorOf(res, method, target.path);
    return;
  }
  await followPages(deps, client, method, target.path, query, body ?? {}, headers);
}

async function followPages(
  deps: Deps,
  client: Awaited<ReturnType<Deps['client']>>,
  method: string,
  path: string,
  query: Record<string, string | string[]>,
  body: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<void> {
  const writer = createRowWriter<unknown>(deps.io, [], {
    format: deps.format === 'ndjson' ? 'ndjson' : 'json',
  });
  const fetchPage = async (cursor: string | undefined): Promise<PageOf<unknown>> => {
    const res = await client.request<Partial<PageOf<unknown>>>(
      method === 'GET'
        ? {
            method,
            path,
            query: cursor ? { ...query, cursor } : query,
            headers,
            signal: deps.signal,
          }
        : { method, path, query, body: withCursor(body, cursor), headers, signal: deps.signal },
    );
    const page = res.body;
    if (!page || typeof page !== 'object' || !Array.isArray(page.data)) {
      throw new UsageError(
        `${method} ${path} did not answer with a page ({ data, next_cursor }), so --paginate cannot follow it.`,
      );
    }
    return {
      data: page.data,
      has_more: page.has_more ?? typeof page.next_cursor === 'string',
      next_cursor:
        typeof page.next_cursor === 'string' && page.next_cursor !== '' ? page.next_cursor : null,
    };
  };
  let pages = 0;
  const progress = await deps.io.progress('Fetching page 1…');
  try {
    for await (const page of paginate(fetchPage, { all: true })) {
      pages = page.page;
      await writer.write(page.rows);
      progress.update(`Fetched ${plural(pages, 'page')}, ${plural(page.seen, 'item')}…`);
    }
  } finally {
    progress.stop();
  }
  await writer.end();
  deps.io.info(`${plural(writer.count, 'item')} in ${plural(pages, 'page')}.`);
}

/** POST query endpoints take the cursor in the body: query.cursor when the body uses it, else cursor. */
function withCursor(
  body: Record<string, unknown>,
  cursor: string | undefined,
): Record<string, unknown> {
  if (cursor === undefined) return body;
  const q = body.query;
  if (q && typeof q === 'object' && !Array.isArray(q) && 'cursor' in q) {
    return { ...body, query: { ...(q as Record<string, unknown>), cursor } };
  }
  return { ...body, cursor };
}
