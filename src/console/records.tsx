// The Records pages: per object type, a table with the workspace's properties as columns,
// a filter box that takes the `--where` language of `ws records list` (parsed here by the
// CLI's own parser, then run by the sandbox's query engine), sort by any column, and pages
// read from the server. A record's page shows every value (references as links), its
// history (every change, with the request or import job that made it) and its runs.

import { useEffect, useState } from 'preact/hooks';
import { parseWhere } from '../query/where.ts';
import { type RunSummary, StepsText } from './activity.tsx';
import {
  type Cause,
  CauseText,
  type Change,
  Changes,
  Choice,
  Loading,
  Pending,
  Problem,
  query,
  recordHref,
  StatusBadge,
  Time,
  useData,
  useSession,
  Value,
} from './ui.tsx';

interface Definition {
  id: string;
  slug: string;
  name: string | null;
  type: string;
}

interface Schema {
  properties: Definition[];
}

interface RecordsPage {
  total: number;
  page: number;
  limit: number;
  has_more: boolean;
  data: { id: string; deleted_at: string | null; values: Record<string, unknown> }[];
}

const PAGE_SIZE = 25;

export function RecordTypes({ current }: { current: string | undefined }) {
  const { data } = useData<{ data: { object_type: string; count: number }[] }>('records');
  const session = useSession();
  const types = data?.data ?? session.object_types.map((t) => ({ object_type: t, count: NaN }));
  return (
    <nav aria-label="Record types" class="subnav">
      <ul>
        {types.map((t) => (
          <li key={t.object_type}>
            <a
              href={`#/records/${t.object_type}`}
              aria-current={t.object_type === current ? 'page' : undefined}
            >
              {t.object_type}
              {Number.isNaN(t.count) ? '' : ` (${t.count})`}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function RecordsPage({ type }: { type: string }) {
  const schema = useData<Schema>(`records/${type}/schema`, false);
  const [whereText, setWhereText] = useState('');
  const [combinator, setCombinator] = useState('AND');
  const [filter, setFilter] = useState<string | undefined>(undefined);
  const [sort, setSort] = useState<{ slug: string; dir: 'asc' | 'desc' } | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [parseProblem, setParseProblem] = useState<string | undefined>(undefined);
  // A filter applied before the properties have loaded waits for them: read without them,
  // every slug would be unknown.
  const [applyWaiting, setApplyWaiting] = useState(false);
  useEffect(() => {
    setWhereText('');
    setFilter(undefined);
    setSort(undefined);
    setPage(1);
    setParseProblem(undefined);
    setApplyWaiting(false);
  }, [type]);
  const path = `records/${type}${query({
    filter,
    combinator: filter === undefined ? undefined : combinator,
    sort: sort === undefined ? undefined : JSON.stringify([{ [sort.slug]: sort.dir }]),
    page,
    limit: PAGE_SIZE,
  })}`;
  const { data, error } = useData<RecordsPage>(path);
  const columns = schema.data?.properties ?? [];
  const schemaRead = schema.data !== undefined || schema.error !== undefined;
  const apply = (ev: Event) => {
    ev.preventDefault();
    if (schemaRead) applyFilter();
    else setApplyWaiting(true);
  };
  useEffect(() => {
    if (!applyWaiting || !schemaRead) return;
    setApplyWaiting(false);
    applyFilter();
  });
  const applyFilter = () => {
    const lines = whereText
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (lines.length === 0) {
      setFilter(undefined);
      setParseProblem(undefined);
      setPage(1);
      return;
    }
    try {
      const parsed = parseWhere(lines, { definitions: columns as never, objectType: type });
      setFilter(JSON.stringify(parsed));
      setParseProblem(undefined);
      setPage(1);
    } catch (e) {
      const err = e as Error & { hint?: string };
      setParseProblem(`${err.message}${err.hint ? ` ${err.hint}` : ''}`);
    }
  };
  const pages = data === undefined ? 1 : Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  const sortBy = (slug: string) => {
    setSort(
      sort?.slug === slug
        ? { slug, dir: sort.dir === 'asc' ? 'desc' : 'asc' }
        : { slug, dir: 'asc' },
    );
    setPage(1);
  };
  return (
    <section aria-labelledby="records-title">
      <h2 id="records-title">Records: {type}</h2>
      <RecordTypes current={type} />
      <form class="where" onSubmit={apply}>
        <label for="where">
          Filter (<code>--where</code>, one expression per line)
        </label>
        <textarea
          id="where"
          rows={2}
          value={whereText}
          aria-describedby="where-help"
          placeholder="status=customer"
          onInput={(ev) => setWhereText((ev.target as HTMLTextAreaElement).value)}
          onKeyDown={(ev) => {
            if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) apply(ev);
          }}
        />
        <p id="where-help" class="muted">
          As <code>ws records list --where</code>: <code>amount&gt;=1000</code>,{' '}
          <code>stage:in=won,lost</code>, <code>phone:is_null</code>. Ctrl+Enter applies.
        </p>
        <Choice
          label="Combine"
          value={combinator}
          options={[
            ['AND', 'all expressions (AND)'],
            ['OR', 'any expression (OR)'],
          ]}
          onChange={setCombinator}
        />
        <button type="submit">Apply filter</button>
      </form>
      <Problem text={parseProblem ?? error ?? schema.error} />
      {data === undefined ? (
        <Loading what="records" />
      ) : (
        <>
          <p class="muted" aria-live="polite">
            {data.total} record{data.total === 1 ? '' : 's'}
            {filter === undefined ? '' : ' match'}; page {page} of {pages}
          </p>
          <div class="table-wrap">
            <table class="records">
              <caption class="visually-hidden">
                {type} records, page {page} of {pages}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Record</th>
                  {columns.map((c) => (
                    <th
                      key={c.slug}
                      scope="col"
                      aria-sort={
                        sort?.slug === c.slug
                          ? sort.dir === 'asc'
                            ? 'ascending'
                            : 'descending'
                          : undefined
                      }
                    >
                      <button
                        type="button"
                        class="sort"
                        aria-label={`Sort by ${c.name ?? c.slug}`}
                        onClick={() => sortBy(c.slug)}
                      >
                        {c.name ?? c.slug}
                        {sort?.slug === c.slug ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.data.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      <a href={recordHref(type, row.id)}>{row.id.slice(0, 8)}</a>
                    </th>
                    {columns.map((c) => (
                      <td key={c.slug}>
                        <Value value={row.values[c.slug]} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous page
            </button>
            <button type="button" disabled={!data.has_more} onClick={() => setPage(page + 1)}>
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

interface RecordDetail {
  object_type: string;
  id: string;
  exists: boolean;
  label: string | null;
  created_at: string | null;
  updated_at: string | null;
  deleted_at: string | null;
  version: number | null;
  properties: Definition[];
  values: { slug: string; value: unknown }[];
  history: {
    seq: number;
    at: string;
    type: string;
    source: string;
    cause: Cause | null;
    changes: Change[];
  }[];
  runs: RunSummary[];
}

export function RecordPage({ type, id }: { type: string; id: string }) {
  const { data, error } = useData<RecordDetail>(`records/${type}/${encodeURIComponent(id)}`);
  if (data === undefined) {
    return <Pending title={`${type} ${id}`} what="the record" error={error} />;
  }
  const names = new Map(data.properties.map((p) => [p.slug, p.name ?? p.slug]));
  return (
    <section aria-labelledby="record-title">
      <p>
        <a href={`#/records/${type}`}>All {type} records</a>
      </p>
      <h2 id="record-title">
        {type} {data.label ?? id}
      </h2>
      <Problem text={error} />
      {!data.exists ? (
        <p class="problem">
          This record is no longer in the sandbox (a reset or a load replaced it).
        </p>
      ) : null}
      {data.deleted_at !== null ? (
        <p class="problem">
          Deleted at <Time at={data.deleted_at} /> (restore it with POST …/{id}/restore).
        </p>
      ) : null}
      <dl class="values">
        <dt>id</dt>
        <dd>
          <code>{id}</code>
        </dd>
        {data.values.map((v) => (
          <>
            <dt key={`t-${v.slug}`}>{names.get(v.slug) ?? v.slug}</dt>
            <dd key={`d-${v.slug}`}>
              <Value value={v.value} />
            </dd>
          </>
        ))}
        <dt>created</dt>
        <dd>
          <Time at={data.created_at} />
        </dd>
        <dt>updated</dt>
        <dd>
          <Time at={data.updated_at} /> (version {data.version ?? '—'})
        </dd>
      </dl>
      <h3>History</h3>
      {data.history.length === 0 ? (
        <p class="muted">No change of this record since the sandbox started.</p>
      ) : (
        <ol class="history" aria-label="Changes, newest first">
          {data.history.map((h) => (
            <li key={h.seq}>
              <p>
                <Time at={h.at} /> {h.type.replace('record.', '')} ({h.source}){' '}
                <CauseText cause={h.cause} />
              </p>
              <Changes changes={h.changes} label="Values changed" />
            </li>
          ))}
        </ol>
      )}
      <h3>Automation runs</h3>
      {data.runs.length === 0 ? (
        <p class="muted">No run of an automation on this record is kept.</p>
      ) : (
        <ul class="runs">
          {data.runs.map((r) => (
            <li key={r.id}>
              <a href={`#/runs/${encodeURIComponent(r.id)}`}>{r.id}</a> “{r.automation_name}” on{' '}
              {r.trigger.event}: <StatusBadge status={r.status} />
              <StepsText steps={r.steps} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
