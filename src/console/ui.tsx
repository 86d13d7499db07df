// What every page of the console shares: reading the console's JSON (live: read again when
// the sandbox changes), sending its few changes with the session's CSRF token, and small
// pieces of the page (values, times, links, errors, tables, lists read, filter drop-downs).

import { type ComponentChildren, createContext, type JSX } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';

export interface Session {
  csrf: string;
  team_id: string;
  version: string;
  object_types: string[];
  automation_types: string[];
}

export interface Live {
  /** Grows each time the sandbox tells of a change (server-sent events). */
  version: number;
  now: string;
  next_due: string | null;
}

export const SessionContext = createContext<Session | undefined>(undefined);
export const LiveContext = createContext<Live>({ version: 0, now: '', next_due: null });

export const API = '/console/api';

/** An answer of the console that is not 2xx: its message is the sandbox's. */
export class ConsoleError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function answer(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  if (!res.ok) {
    const message =
      (body as { error?: { message?: string } } | undefined)?.error?.message ??
      (typeof body === 'string' && body !== '' ? body : `The console answered ${res.status}.`);
    if (res.status === 401) window.location.assign('/console/');
    throw new ConsoleError(res.status, message);
  }
  return body;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await answer(
    await fetch(`${API}/${path}`, { credentials: 'same-origin', cache: 'no-store' }),
  )) as T;
}

export async function postJson<T>(session: Session, path: string, body?: unknown): Promise<T> {
  return (await answer(
    await fetch(`${API}/${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )) as T;
}

export function useSession(): Session {
  return useContext(SessionContext)!;
}

/**
 * The JSON at `path`, read again whenever the sandbox changes (`live`, default) or `path`
 * does. A read that is under way when a change comes is followed by one more.
 */
export function useData<T>(
  path: string | undefined,
  live = true,
): { data: T | undefined; error: string | undefined; reload: () => void } {
  const { version } = useContext(LiveContext);
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [nudge, setNudge] = useState(0);
  const busy = useRef(false);
  const again = useRef(false);
  const current = useRef(path);
  current.current = path;
  const trigger = live ? version : 0;
  useEffect(() => {
    if (path === undefined) return;
    if (busy.current) {
      again.current = true;
      return;
    }
    let cancelled = false;
    const read = () => {
      busy.current = true;
      getJson<T>(path)
        .then(
          (d) => {
            if (!cancelled && current.current === path) {
              setData(d);
              setError(undefined);
            }
          },
          (e: unknown) => {
            if (!cancelled) setError(e instanceof Error ? e.message : String(e));
          },
        )
        .finally(() => {
          busy.current = false;
          if (again.current && !cancelled) {
            again.current = false;
            read();
          }
        });
    };
    read();
    return () => {
      cancelled = true;
      busy.current = false;
    };
  }, [path, trigger, nudge]);
  useEffect(() => setData(undefined), [path]);
  return { data, error, reload: () => setNudge((n) => n + 1) };
}

export function Problem({ text }: { text: string | undefined }) {
  if (text === undefined) return null;
  return (
    <p class="problem" role="alert">
      {text}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted">Loading {what}…</p>;
}

/** A time as the sandbox clock gave it, shown in UTC, with the ISO text for machines. */
export function Time({ at }: { at: string | null | undefined }) {
  if (at == null) return <span class="muted">—</span>;
  const d = new Date(at);
  const text = Number.isNaN(d.getTime()) ? at : d.toISOString().replace('T', ' ').slice(0, 19);
  return <time dateTime={at}>{text} UTC</time>;
}

export interface Ref {
  ref: true;
  object_type: string | null;
  id: string;
  label: string | null;
  found: boolean;
}

function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && (value as Ref).ref === true;
}

export function recordHref(type: string, id: string): string {
  return `#/records/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;
}

/** A value of a record: text as it is, references as links, others as JSON. */
export function Value({ value }: { value: unknown }): JSX.Element {
  if (value === null || value === undefined) return <span class="muted">—</span>;
  if (isRef(value)) {
    const text = value.label ?? value.id;
    if (value.object_type === null) return <span>{text}</span>;
    return (
      <a href={recordHref(value.object_type, value.id)} title={value.id}>
        {text}
        {value.found ? '' : ' (no such record)'}
      </a>
    );
  }
  if (Array.isArray(value) && value.some(isRef)) {
    return (
      <span>
        {value.map((v, i) => (
          <span key={i}>
            {i > 0 ? ', ' : ''}
            <Value value={v} />
          </span>
        ))}
      </span>
    );
  }
  if (typeof value === 'string') return <span>{value}</span>;
  return <code>{JSON.stringify(value)}</code>;
}

/** A value in a change (before → after): short JSON, or "no value". */
export function changeText(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (typeof value === 'object' && value !== null && 'id' in value) {
    return String((value as { id: unknown }).id);
  }
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
}

export interface Change {
  slug: string;
  before: unknown;
  after: unknown;
}

export function Changes({ changes, label }: { changes: Change[]; label: string }) {
  if (changes.length === 0) return null;
  return (
    <table class="changes">
      <caption class="visually-hidden">{label}</caption>
      <ColumnHeads names={['Property', 'Before', 'After']} />
      <tbody>
        {changes.map((c) => (
          <tr key={c.slug}>
            <th scope="row">{c.slug}</th>
            <td>{changeText(c.before)}</td>
            <td>{changeText(c.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface Cause {
  kind: 'request' | 'import';
  request_id?: string;
  method?: string;
  path?: string;
  job_id?: string;
}

/** What caused a change: a request (a link to it in the request log) or an import job. */
export function CauseText({ cause }: { cause: Cause | null }) {
  if (cause === null) return <span class="muted">by the sandbox (a timer)</span>;
  if (cause.kind === 'import') return <span>by import job {cause.job_id}</span>;
  return (
    <span>
      by{' '}
      <a href={`#/requests/${encodeURIComponent(cause.request_id!)}`}>
        {cause.method} {cause.path}
      </a>{' '}
      <span class="muted">({cause.request_id})</span>
    </span>
  );
}

export function StatusBadge({ status }: { status: string | number | null }) {
  const text = status === null ? 'none' : String(status);
  const tone = /^(success|completed|complete|dispatched|recorded|2\d\d)$/.test(text)
    ? 'good'
    : /^(failed|cancelled|[45]\d\d|none)$/.test(text)
      ? 'bad'
      : 'neutral';
  return <span class={`badge ${tone}`}>{text}</span>;
}

export function Json({ text, label }: { text: string | null | undefined; label: string }) {
  if (text == null) return <p class="muted">No {label}.</p>;
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: as it is
  }
  return (
    <pre class="body" title={label}>
      {pretty}
    </pre>
  );
}

/** A query string from the values given (empty ones left out). */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

/** Headers as a table: name and value, one row each. */
export function Headers({
  headers,
  caption,
}: {
  headers: Record<string, string>;
  caption: string;
}) {
  return (
    <Table class="headers" caption={caption} columns={['Header', 'Value']}>
      {Object.entries(headers).map(([name, value]) => (
        <tr key={name}>
          <th scope="row">{name}</th>
          <td>
            <code>{value}</code>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A page whose data has not come yet: its title, and why it has not (or that it is coming). */
export function Pending({
  title,
  what,
  error,
}: {
  title: string;
  what: string;
  error: string | undefined;
}) {
  return (
    <section>
      <h2>{title}</h2>
      <Problem text={error} />
      {error === undefined ? <Loading what={what} /> : null}
    </section>
  );
}

/** A table's row of column headings. */
export function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A table under its caption and column headings; `children` are the rows of its body. */
export function Table({
  caption,
  columns,
  class: className,
  children,
}: {
  caption: string;
  columns: string[];
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <table class={className}>
      <caption>{caption}</caption>
      <ColumnHeads names={columns} />
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * A list the page read: why it could not be read, that it is coming, that it is empty
 * (`none`), or the list as `children` shows it.
 */
export function Listing<T>({
  items,
  error,
  what,
  none,
  children,
}: {
  items: T[] | undefined;
  error: string | undefined;
  what: string;
  none: ComponentChildren;
  children: (items: T[]) => ComponentChildren;
}) {
  return (
    <>
      <Problem text={error} />
      {items === undefined ? (
        <Loading what={what} />
      ) : items.length === 0 ? (
        <p class="muted">{none}</p>
      ) : (
        children(items)
      )}
    </>
  );
}

/** An option of a drop-down: a value that is its own text, or [value, text]. */
export type Option = string | readonly [value: string, text: string];

/** A labelled drop-down of a page's filters. */
export function Choice({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(ev) => onChange((ev.target as HTMLSelectElement).value)}>
        {options.map((option) => {
          const [v, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}
