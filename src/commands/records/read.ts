// Reading many records, shared by list, query, count and export: the flags become either
// the list endpoint (GET, no filter) or the query endpoint (POST, typed filters), and
// pages are read with paginate() so callers can stream them.
import type { ApiClient } from '../../api/client.ts';
import type { RecordType } from '../../api/object-types.ts';
import { type PageOf, paginate } from '../../api/paginate.ts';
import { listRecords, type QueryBody, queryRecords } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { buildFilter } from '../../query/filter.ts';
import { parseSelect } from '../../query/select.ts';
import { formatSort, parseSort, type SortEntry } from '../../query/sort.ts';
import type { Filter } from '../../query/where.ts';
import { isPlainObject } from '../../util/guards.ts';
import { readJsonArg } from '../common/input.ts';
import { definitions, type PropertyDefinition, type Row } from './shared.ts';

/** The flags of every verb that reads many records. */
export interface ReadFlags {
  where: string[];
  or: boolean;
  filterJson?: string | undefined;
  select?: string | undefined;
  sort?: string | undefined;
  deleted: boolean;
  listId?: string | undefined;
  /** `query --body`: a raw query body the flags add to. */
  body?: string | undefined;
}

/** What to send, decided before the first request. */
export interface ReadPlan {
  type: RecordType;
  /** POST …/query (filters) rather than GET (none). */
  useQuery: boolean;
  select: string[] | undefined;
  sort: SortEntry[] | undefined;
  filter: Filter[] | undefined;
  combinator: 'AND' | 'OR' | undefined;
  deleted: boolean;
  listId: string | undefined;
  /** From `query --body`. */
  base: QueryBody | undefined;
  /** When they were needed (filters, --select, --sort, or `needDefinitions`). */
  defs: PropertyDefinition[] | undefined;
}

function hasFilter(flags: ReadFlags): boolean {
  return flags.where.length > 0 || flags.filterJson !== undefined;
}

async function readBody(spec: string, deps: Deps): Promise<QueryBody> {
  const body = await readJsonArg(spec, deps, '--body');
  if (!isPlainObject(body)) {
    throw new UsageError(
      '--body must be a JSON object: a query body like {"query":{"select":["name"],"filter":[…]}}.',
    );
  }
  const q = body['query'];
  if (q !== undefined && !isPlainObject(q))
    throw new UsageError('--body: "query" must be an object.');
  return { ...body, query: { select: [], ...q } } as QueryBody;
}

/**
 * Check the flags and decide the requests. Slugs in --where, --select and --sort are
 * checked against the definitions ("did you mean"); definitions are read (from the
 * 5-minute cache when fresh) only when something needs them.
 */
export async function planRead(
  flags: ReadFlags,
  deps: Deps,
  type: RecordType,
  opts: {
    forceQuery?: boolean;
    needDefinitions?: boolean;
    /** Select these slugs whatever the flags say (count selects only `id`). */
    select?: string[];
  } = {},
): Promise<ReadPlan> {
  if (flags.or && !hasFilter(flags))
    throw new UsageError('--or combines filters: give --where or --filter-json with it.');
  const base = flags.body !== undefined ? await readBody(flags.body, deps) : undefined;
  const useQuery = opts.forceQuery === true || hasFilter(flags);
  const needDefs =
    opts.needDefinitions === true ||
    hasFilter(flags) ||
    flags.select !== undefined ||
    flags.sort !== undefined ||
    (useQuery && !opts.select && !base?.query.select?.length);
  const defs = needDefs ? await definitions(deps, type, flags.listId) : undefined;
  const ctx = { definitions: defs, objectType: type };
  const built = buildFilter(
    { where: flags.where, filterJson: flags.filterJson, or: flags.or },
    ctx,
  );
  const select =
    opts.select ?? (flags.select !== undefined ? parseSelect(flags.select, ctx) : undefined);
  const sort = flags.sort !== undefined ? parseSort(flags.sort, ctx) : undefined;
  return {
    type,
    useQuery,
    select,
    sort,
    filter: built.filter,
    combinator: built.combinator,
    deleted: flags.deleted,
    listId: flags.listId,
    base,
    defs,
  };
}

/** The slugs a read returns: --select, the body's select, or every defined property. */
export function selectedSlugs(plan: ReadPlan): string[] | undefined {
  if (plan.select) return plan.select;
  if (plan.base?.query.select?.length) return plan.base.query.select;
  return plan.defs?.map((d) => d.slug);
}

/** The body of one query page. */
export function queryBody(
  plan: ReadPlan,
  page: { cursor?: string | undefined; size: number; includeTotal?: boolean },
): QueryBody {
  const base = plan.base ?? { query: { select: [] } };
  const query = { ...base.query };
  query.select = selectedSlugs(plan) ?? ['id'];
  if (plan.filter) {
    query.filter = [...(base.query.filter ?? []), ...plan.filter];
    if (plan.combinator) query.combinator = plan.combinator;
  }
  if (plan.sort) query.sort = plan.sort;
  if (plan.listId !== undefined) query.list_id = plan.listId;
  query.limit = page.size;
  delete query.page;
  if (page.cursor !== undefined) query.cursor = page.cursor;
  else delete query.cursor;
  const body: QueryBody = { ...base, query };
  delete body.cursor;
  if (plan.deleted) body.deleted = true;
  if (page.includeTotal) body.include_total = true;
  return body;
}

/** The query string of one list page. */
export function listQuery(
  plan: ReadPlan,
  page: { cursor?: string | undefined; size: number; includeTotal?: boolean },
): Record<string, string | number | undefined> {
  return {
    limit: page.size,
    cursor: page.cursor,
    select: plan.select?.join(','),
    sort: plan.sort ? formatSort(plan.sort) : undefined,
    deleted: plan.deleted ? 'true' : undefined,
    include_total: page.includeTotal ? 'true' : undefined,
    list_id: plan.listId,
  };
}

export interface ReadOptions {
  limit?: number | undefined;
  all?: boolean | undefined;
  /** Ask for the total on the first page (it costs the service an extra pass). */
  total?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export interface ReadState {
  /** Whether the service said more records exist after the last page read. */
  hasMore: boolean;
  /** Requests made. */
  requests: number;
}

/**
 * The pages of a read, as they arrive (see paginate). `state` tells, once done, whether
 * more records exist than were read.
 */
export function readPages(
  client: ApiClient,
  plan: ReadPlan,
  opts: ReadOptions,
  state: ReadState = { hasMore: false, requests: 0 },
): AsyncGenerator<{ rows: Row[]; total: number | undefined; seen: number }> {
  const fetchPage = async (cursor: string | undefined, size: number): Promise<PageOf<Row>> => {
    const page = { cursor, size, includeTotal: opts.total === true && cursor === undefined };
    state.requests++;
    const res = plan.useQuery
      ? await queryRecords(client, plan.type, queryBody(plan, page), { signal: opts.signal })
      : await listRecords(client, plan.type, listQuery(plan, page), { signal: opts.signal });
    state.hasMore = res.has_more;
    return res as PageOf<Row>;
  };
  return paginate(fetchPage, { limit: opts.limit, all: opts.all });
}
