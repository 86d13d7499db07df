// The Activity page: the sandbox's activity log, newest first and live: records created,
// updated (each property before → after), deleted and restored; import jobs with their
// progress and failed rows; automation runs and their steps; deliveries and their attempts;
// the clock and resets. Filters: kind, object type, record.

import { useState } from 'preact/hooks';
import {
  type Cause,
  CauseText,
  type Change,
  Changes,
  Choice,
  getJson,
  Listing,
  query,
  recordHref,
  StatusBadge,
  Time,
  useData,
  useSession,
} from './ui.tsx';

interface Entry {
  seq: number;
  at: string;
  kind: string;
  type?: string;
  cause: Cause | null;
  [key: string]: unknown;
}

interface Page {
  entries: Entry[];
  next_before: number | null;
}

const KINDS: [string, string][] = [
  ['', 'Everything'],
  ['record', 'Records'],
  ['import', 'Imports'],
  ['run', 'Automation runs'],
  ['delivery', 'Deliveries'],
  ['clock,reset', 'Clock and resets'],
];

/** What an import or run entry tells of its job or run, by the entry's type. */
const HAPPENED = new Map([
  ['import.finished', 'finished'],
  ['import.completed_now', 'done at once'],
  ['run.resumed', 'resumed'],
  ['run.finished', 'ended'],
]);

function happened(e: Entry): string {
  return HAPPENED.get(e.type ?? '') ?? 'started';
}

function RecordEntry({ e }: { e: Entry }) {
  const type = e['object_type'] as string;
  const id = e['record_id'] as string;
  const verb = (e.type ?? '').replace('record.', '');
  const changes = e['changes'] as Change[];
  return (
    <>
      <p>
        <a href={recordHref(type, id)}>
          {type} {(e['label'] as string | null) ?? id}
        </a>{' '}
        {verb} <CauseText cause={e.cause} />
      </p>
      {verb === 'updated' ? (
        <Changes changes={changes} label="What the update changed" />
      ) : changes.length > 0 ? (
        <details>
          <summary>
            {changes.length} value{changes.length === 1 ? '' : 's'}
          </summary>
          <Changes changes={changes} label="Values it was created with" />
        </details>
      ) : null}
    </>
  );
}

function ImportEntry({ e }: { e: Entry }) {
  const rows = e['failed_rows'] as {
    input_index: number;
    error: { code: string; message: string };
  }[];
  const total = e['total'] as number;
  const processed = e['processed'] as number;
  const jobId = e['job_id'] as string | null;
  const error = e['error'] as { code: string; message: string } | null;
  const what = happened(e);
  return (
    <>
      <p>
        Import {jobId ?? '(synchronous)'} of {total} {e['object_type'] as string} rows {what}:{' '}
        <StatusBadge status={e['status'] as string} /> {processed} of {total} processed,{' '}
        {e['succeeded'] as number} imported, {e['failed'] as number} failed{' '}
        <CauseText cause={e.cause} />
      </p>
      <progress max={total} value={processed} aria-label={`Import ${jobId ?? ''} progress`}>
        {processed} of {total}
      </progress>
      {error !== null ? <p class="problem">{error.message}</p> : null}
      {rows.length > 0 ? (
        <details>
          <summary>Failed rows (by their place in the import's objects)</summary>
          <ul>
            {rows.map((r) => (
              <li key={r.input_index}>
                Object {r.input_index + 1}: {r.error.code}: {r.error.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

export interface RunSummary {
  id: string;
  automation_id: string;
  automation_name: string;
  object_type: string;
  record_id: string;
  record_label: string | null;
  status: string;
  started_at: string;
  resume_at: string | null;
  trigger: { event: string; source: string; type: string };
  steps: { index: number; type: string; status: string; until?: string }[];
}

export function StepsText({ steps }: { steps: RunSummary['steps'] }) {
  return (
    <ol class="steps">
      {steps.map((s) => (
        <li key={s.index}>
          {s.type} <StatusBadge status={s.status} />
          {s.until !== undefined ? (
            <>
              {' '}
              until <Time at={s.until} />
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function RunEntry({ e }: { e: Entry }) {
  const run = e['run'] as RunSummary | null;
  const verb = happened(e);
  if (run === null) {
    const type = e['object_type'] as string;
    const id = e['record_id'] as string;
    return (
      <p>
        A run {verb} on{' '}
        <a href={recordHref(type, id)}>
          {type} {id}
        </a>
        ; the sandbox no longer keeps it (it keeps the latest 10,000 finished runs).
      </p>
    );
  }
  return (
    <>
      <p>
        Run <a href={`#/runs/${encodeURIComponent(run.id)}`}>{run.id}</a> of “{run.automation_name}”{' '}
        {verb} on {run.trigger.event} of{' '}
        <a href={recordHref(run.object_type, run.record_id)}>{run.record_label ?? run.record_id}</a>
        : <StatusBadge status={run.status} />
      </p>
      <StepsText steps={run.steps} />
    </>
  );
}

function DeliveryEntry({ e }: { e: Entry }) {
  const d = e['delivery'] as Record<string, unknown>;
  const attempt = e['attempt'] as Record<string, unknown> | undefined;
  const link = (
    <a href={`#/deliveries/${encodeURIComponent(d['delivery_id'] as string)}`}>
      {d['type'] === 'verification' ? 'handshake' : `delivery of ${d['event'] as string}`}
    </a>
  );
  if (attempt === undefined) {
    return (
      <p>
        New {link} to {(d['webhook_name'] as string | null) ?? (d['webhook_id'] as string)}:{' '}
        <StatusBadge status={d['status'] as string} />
      </p>
    );
  }
  return (
    <p>
      Attempt {attempt['attempt'] as number} of {link} to{' '}
      {(d['webhook_name'] as string | null) ?? (d['webhook_id'] as string)}:{' '}
      <StatusBadge status={attempt['status'] as string} />{' '}
      {attempt['status_code'] === null ? '' : `answered ${attempt['status_code'] as number}`} in{' '}
      {attempt['duration_ms'] as number} ms
      {attempt['error'] ? ` (${attempt['error'] as string})` : ''}
    </p>
  );
}

function EntryBody({ e }: { e: Entry }) {
  switch (e.kind) {
    case 'record':
      return <RecordEntry e={e} />;
    case 'import':
      return <ImportEntry e={e} />;
    case 'run':
      return <RunEntry e={e} />;
    case 'delivery':
      return <DeliveryEntry e={e} />;
    case 'clock':
      return (
        <p>
          The clock moved forward {e['seconds'] as number} s, to <Time at={e['to'] as string} />
        </p>
      );
    default:
      return <p>The sandbox was reset.</p>;
  }
}

export function EntryList({ entries, label }: { entries: Entry[]; label: string }) {
  return (
    <ol class="feed" aria-label={label}>
      {entries.map((e) => (
        <li key={e.seq} class={`entry ${e.kind}`}>
          <div class="entry-meta">
            <span class="kind">{e.kind}</span> <Time at={e.at} />
          </div>
          <EntryBody e={e} />
        </li>
      ))}
    </ol>
  );
}

export function ActivityPage() {
  useSession();
  const [kind, setKind] = useState('');
  const [type, setType] = useState('');
  const [record, setRecord] = useState('');
  const [older, setOlder] = useState<Entry[]>([]);
  const [next, setNext] = useState<number | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const filters = { kind, object_type: type, record_id: record };
  const { data, error } = useData<Page>(`activity${query({ ...filters, limit: 50 })}`);
  const session = useSession();
  const more = async () => {
    const before = next ?? data?.next_before;
    if (before == null) return;
    try {
      const page = await getJson<Page>(`activity${query({ ...filters, limit: 100, before })}`);
      setOlder([...older, ...page.entries]);
      setNext(page.next_before);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  const reset = () => {
    setOlder([]);
    setNext(undefined);
  };
  const hasMore = next === undefined ? data?.next_before != null : next !== null;
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <form class="filters" onSubmit={(ev) => ev.preventDefault()}>
        <Choice
          label="Kind"
          value={kind}
          options={KINDS}
          onChange={(value) => {
            setKind(value);
            reset();
          }}
        />
        <Choice
          label="Object type"
          value={type}
          options={[['', 'Any'], ...session.object_types]}
          onChange={(value) => {
            setType(value);
            reset();
          }}
        />
        <label>
          Record id
          <input
            value={record}
            onChange={(ev) => {
              setRecord((ev.target as HTMLInputElement).value.trim());
              reset();
            }}
            placeholder="any record"
          />
        </label>
      </form>
      <Listing
        items={data?.entries}
        error={error ?? problem}
        what="the activity"
        none="Nothing yet: what the sandbox does shows here as it happens."
      >
        {(entries) => <EntryList entries={[...entries, ...older]} label="Activity, newest first" />}
      </Listing>
      {hasMore ? (
        <button type="button" onClick={more}>
          Show older activity
        </button>
      ) : null}
    </section>
  );
}
