// Reading a paginated list: `limit` records however many pages that takes, or every
// page with `all`. Pages are yielded as they arrive so callers can stream them.

export interface PageOf<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number | null | undefined;
}

/** The largest page the API serves. */
export const MAX_PAGE = 50;

export interface PaginateOptions {
  /** How many items in all (default: one page of `pageSize`). */
  limit?: number | undefined;
  /** Read to the end (wins over limit). */
  all?: boolean | undefined;
  /** Items per request, at most `maxPageSize`. */
  pageSize?: number | undefined;
  /** The largest page the endpoint serves (default 50; the delivery listings serve 100). */
  maxPageSize?: number | undefined;
}

export interface PageEvent<T> {
  rows: T[];
  /** The total the API reported, when it was asked for. */
  total: number | undefined;
  /** 1-based number of this page. */
  page: number;
  /** Items yielded so far, this page included. */
  seen: number;
}

/**
 * Yields pages from `fetchPage(cursor, size)`, following `next_cursor`, until `limit`
 * items were read, `all` reached the end, or the API says there is no more.
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined, size: number) => Promise<PageOf<T>>,
  opts: PaginateOptions = {},
): AsyncGenerator<PageEvent<T>> {
  const max = opts.maxPageSize ?? MAX_PAGE;
  const pageSize = Math.min(max, Math.max(1, opts.pageSize ?? max));
  const wanted = opts.all ? Number.POSITIVE_INFINITY : (opts.limit ?? pageSize);
  let cursor: string | undefined;
  let seen = 0;
  let page = 0;
  while (seen < wanted) {
    const size = Math.min(pageSize, wanted - seen);
    const res = await fetchPage(cursor, size);
    page++;
    const rows = res.data.slice(0, wanted - seen);
    seen += rows.length;
    yield { rows, total: res.total ?? undefined, page, seen };
    if (!res.has_more || !res.next_cursor || res.data.length === 0) return;
    cursor = res.next_cursor;
  }
}
