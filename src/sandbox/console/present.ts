// What the console's pages show, as JSON: entries of the activity log, runs, deliveries,
// records and their changes. Entries keep the events as they were emitted (activity/log.ts);
// they are turned into these shapes only when a page asks for them.

import type { ActivityEntry } from '../activity/log.ts';
import type { Cause } from '../cause.ts';
import { isObjectType, type ObjectType } from '../object-types.ts';
import { runBody } from '../resources/automations/present.ts';
import type { Run } from '../resources/automations/types.ts';
import { propertiesOf } from '../resources/properties/model.ts';
import { referenceTarget } from '../resources/properties/scope.ts';
import type { RecordEvent } from '../resources/records/events.ts';
import { recordsOf } from '../resources/records/model.ts';
import type { StoredRecord, Values } from '../resources/records/types.ts';
import { webhooksOf } from '../resources/webhooks/model.ts';
import type { StoredDelivery } from '../resources/webhooks/types.ts';
import type { Store } from '../store.ts';

/** Failed rows shown with an import (the rest are counted). */
const FAILED_ROWS_SHOWN = 50;

export function causeBody(cause: Cause | undefined): Record<string, unknown> | null {
  if (cause === undefined) return null;
  if (cause.kind === 'import') return { kind: 'import', job_id: cause.jobId };
  const q = cause.path.indexOf('?');
  return {
    kind: 'request',
    request_id: cause.requestId,
    method: cause.method,
    path: q === -1 ? cause.path : cause.path.slice(0, q),
  };
}

/** The words a record is named by in the console: its name, title or email, else none. */
export function labelOf(values: Values | undefined | null): string | null {
  if (values == null) return null;
  for (const slug of ['name', 'title', 'email', 'subject', 'handle', 'url']) {
    const v = values[slug];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Each value a write changed, before → after (null for no value); list values as `list.<id>.<slug>`. */
export function changesOf(
  before: Pick<StoredRecord, 'default' | 'lists'> | null,
  after: Pick<StoredRecord, 'default' | 'lists'>,
): { slug: string; before: unknown; after: unknown }[] {
  const out: { slug: string; before: unknown; after: unknown }[] = [];
  const diff = (prefix: string, b: Values, a: Values) => {
    for (const slug of new Set([...Object.keys(b), ...Object.keys(a)])) {
      const from = b[slug] ?? null;
      const to = a[slug] ?? null;
      if (!same(from, to)) out.push({ slug: `${prefix}${slug}`, before: from, after: to });
    }
  };
  diff('', before?.default ?? {}, after.default);
  const lists = new Set([...Object.keys(before?.lists ?? {}), ...Object.keys(after.lists)]);
  for (const listId of lists) {
    diff(`list.${listId}.`, before?.lists[listId] ?? {}, after.lists[listId] ?? {});
  }
  return out;
}

function recordEventBody(event: RecordEvent): Record<string, unknown> {
  const changes =
    event.type === 'record.created' || event.type === 'record.updated'
      ? changesOf(event.before, event.after)
      : [];
  return {
    type: event.type,
    source: event.source,
    object_type: event.objectType,
    record_id: event.id,
    label: labelOf(event.after.default),
    changes,
  };
}

/** A run as the feed shows it: runBody without the webhook events' data (see the run's page). */
export function runSummary(store: Store, run: Run): Record<string, unknown> {
  return { ...runBody(store, run, { withData: false }), record_label: labelOf(run.trigger.after) };
}

export function deliveryBody(store: Store, d: Readonly<StoredDelivery>): Record<string, unknown> {
  const webhook = webhooksOf(store).get(d.team_id, d.webhook_id);
  return {
    delivery_id: d.delivery_id,
    webhook_id: d.webhook_id,
    webhook_name: webhook?.name ?? null,
    type: d.type,
    event: d.event,
    url: d.url,
    status: d.status,
    status_code: d.status_code,
    attempts: d.attempts,
    created_at: d.created_at,
    updated_at: d.updated_at,
    next_attempt_at: d.next_attempt_at,
    dead_lettered: d.dead_lettered,
    not_sent: d.not_sent ?? null,
  };
}

/** One entry of the activity log, as the feed shows it. */
export function entryBody(store: Store, entry: ActivityEntry): Record<string, unknown> {
  const base = {
    seq: entry.seq,
    at: new Date(entry.atMs).toISOString(),
    kind: entry.kind,
    cause: causeBody(entry.cause),
  };
  switch (entry.kind) {
    case 'record':
      return { ...base, ...recordEventBody(entry.event) };
    case 'import': {
      const e = entry.event;
      if (e.type === 'import.completed_now') {
        return {
          ...base,
          type: e.type,
          job_id: null,
          object_type: e.objectType,
          status: e.error === undefined ? 'complete' : 'failed',
          total: e.total,
          processed: e.succeeded + e.failed.length,
          succeeded: e.succeeded,
          failed: e.failed.length,
          failed_rows: e.failed.slice(0, FAILED_ROWS_SHOWN),
          error: e.error ?? null,
        };
      }
      const job = e.job as typeof e.job & { results?: { input_index: number; error?: unknown }[] };
      const failedRows =
        e.type === 'import.progressed'
          ? e.failed.slice(0, FAILED_ROWS_SHOWN)
          : (job.results ?? [])
              .filter((r) => r.error !== undefined)
              .slice(0, FAILED_ROWS_SHOWN)
              .map((r) => ({ input_index: r.input_index, error: r.error }));
      return {
        ...base,
        type: e.type,
        job_id: job.job_id,
        object_type: job.object_type,
        status: job.status,
        total: job.total,
        processed: job.processed,
        succeeded: job.succeeded,
        failed: job.failed,
        failed_rows: failedRows,
        error: job.error,
      };
    }
    case 'run': {
      const e = entry.event;
      const run = e.run();
      return {
        ...base,
        type: e.type,
        object_type: e.objectType,
        record_id: e.recordId,
        run: run === undefined ? null : runSummary(store, run),
      };
    }
    case 'delivery': {
      const e = entry.event;
      const body: Record<string, unknown> = {
        ...base,
        type: e.type,
        delivery: deliveryBody(store, e.delivery),
      };
      if (e.type === 'delivery.attempted') {
        const { response_body: _body, ...attempt } = e.attempt;
        body['attempt'] = attempt;
      }
      return body;
    }
    case 'clock':
      return {
        ...base,
        from: new Date(entry.event.fromMs).toISOString(),
        to: new Date(entry.event.toMs).toISOString(),
        seconds: (entry.event.toMs - entry.event.fromMs) / 1000,
      };
    case 'reset':
      return base;
  }
}

/** What an entry is about, for the feed's filters. */
export function entryFacts(entry: ActivityEntry): { objectType?: string; recordId?: string } {
  switch (entry.kind) {
    case 'record':
      return { objectType: entry.event.objectType, recordId: entry.event.id };
    case 'run':
      return { objectType: entry.event.objectType, recordId: entry.event.recordId };
    case 'import': {
      const e = entry.event;
      return { objectType: e.type === 'import.completed_now' ? e.objectType : e.job.object_type };
    }
    default:
      return {};
  }
}

/** The record of a reference, for a link: its type, id and label (null: not found). */
export function referenceBody(
  store: Store,
  teamId: string,
  type: ObjectType,
  slug: string,
  value: unknown,
): unknown {
  const def = propertiesOf(store).bySlug(teamId, type, slug, null);
  if (def === undefined) return value;
  const target = referenceTarget(def);
  const one = (item: unknown) => {
    const id =
      typeof item === 'string'
        ? item
        : item !== null &&
            typeof item === 'object' &&
            typeof (item as { id?: unknown }).id === 'string'
          ? (item as { id: string }).id
          : undefined;
    if (id === undefined) return item;
    const record =
      target !== undefined && isObjectType(target) ? recordsOf(store).get(target, id) : undefined;
    return {
      ref: true,
      object_type: target ?? null,
      id,
      label: record === undefined ? null : labelOf(record.default),
      found: record !== undefined,
    };
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}
