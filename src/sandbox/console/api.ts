// The console's data: one function per page's question, over the models, the activity log
// and the request log. Reads answer JSON; the few writes (resend, clock, faults, reset) go
// through the same code as the control endpoints and the delivery engine. Problems are
// SandboxErrors with the API's error body, so the pages show the API's own messages (a
// --where filter that names an unknown property is the query engine's 400).

import pkg from '../../../package.json' with { type: 'json' };
import { isPlainObject } from '../../util/guards.ts';
import type { ActivityKind, ActivityLog } from '../activity/log.ts';
import type { LoggedRequest, RequestLog } from '../activity/requests.ts';
import { changeFaults, FAULT_BODY_FIELDS, moveClock } from '../control.ts';
import { invalidRequest, notFound, SandboxError } from '../errors.ts';
import { isObjectType, OBJECT_TYPES, type ObjectType } from '../object-types.ts';
import type { SandboxRuntime } from '../resource.ts';
import { contactViewsOf } from '../resources/automations/contact-views.ts';
import { AUTOMATION_OBJECT_TYPES, automationsOf } from '../resources/automations/model.ts';
import { automationBody, runBody } from '../resources/automations/present.ts';
import { runId, runsOf } from '../resources/automations/runs.ts';
import type { Run } from '../resources/automations/types.ts';
import { propertiesOf } from '../resources/properties/model.ts';
import { recordsOf } from '../resources/records/model.ts';
import {
  type Combinator,
  type FilterEntry,
  runQuery,
  type SortEntry,
} from '../resources/records/query.ts';
import { deliveriesOf } from '../resources/webhooks/engine.ts';
import type { SentRequest } from '../resources/webhooks/events.ts';
import { webhooksOf, webhookView } from '../resources/webhooks/model.ts';
import type { Store } from '../store.ts';
import {
  causeBody,
  changesOf,
  deliveryBody,
  entryBody,
  entryFacts,
  labelOf,
  referenceBody,
  runSummary,
} from './present.ts';

export type Query = Readonly<Record<string, string | undefined>>;

export interface ConsoleContext {
  readonly store: Store;
  readonly runtime: SandboxRuntime;
  readonly teamId: string;
  readonly activity: ActivityLog;
  readonly requests: RequestLog;
}

const KINDS: readonly ActivityKind[] = ['record', 'import', 'run', 'delivery', 'clock', 'reset'];

function limitOf(q: Query, fallback: number, max: number): number {
  const text = q['limit'];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw invalidRequest(`limit must be an integer from 1 to ${max}, got '${text}'.`, [
      { field: 'query.limit', message: `an integer from 1 to ${max}`, code: 'range' },
    ]);
  }
  return n;
}

function positive(q: Query, name: string): number | undefined {
  const text = q[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw invalidRequest(`${name} must be a positive integer, got '${text}'.`, [
      { field: `query.${name}`, message: 'a positive integer', code: 'type' },
    ]);
  }
  return n;
}

function objectTypeOf(type: string): ObjectType {
  if (!isObjectType(type)) {
    throw notFound(`No record type '${type}': the sandbox keeps ${OBJECT_TYPES.join(', ')}.`);
  }
  return type;
}

function jsonParam<T>(q: Query, name: string): T | undefined {
  const text = q[name];
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw invalidRequest(`${name} is not JSON.`, [
      { field: `query.${name}`, message: 'JSON', code: 'format' },
    ]);
  }
}

// ---------------------------------------------------------------- session and overview

export function overview(c: ConsoleContext): Record<string, unknown> {
  const due = runsOf(c.store).nextDue();
  return {
    now: c.store.clock.iso(),
    clock_offset_ms: c.store.clock.offsetMs,
    next_due: due === undefined ? null : new Date(due).toISOString(),
    activity: c.activity.latest,
    requests: c.requests.latest,
  };
}

export function sessionBody(c: ConsoleContext, csrf: string): Record<string, unknown> {
  return {
    csrf,
    team_id: c.teamId,
    version: pkg.version,
    started_at: c.runtime.startedAt,
    object_types: OBJECT_TYPES,
    automation_types: AUTOMATION_OBJECT_TYPES,
    ...overview(c),
  };
}

// ---------------------------------------------------------------- activity

export function activity(c: ConsoleContext, q: Query): Record<string, unknown> {
  const limit = limitOf(q, 50, 500);
  const before = positive(q, 'before');
  const kinds = (q['kind'] ?? '').split(',').filter((k) => k !== '');
  for (const k of kinds) {
    if (!KINDS.includes(k as ActivityKind)) {
      throw invalidRequest(`Unknown kind '${k}'; kinds: ${KINDS.join(', ')}.`, [
        { field: 'query.kind', message: `one of ${KINDS.join(', ')}`, code: 'enum' },
      ]);
    }
  }
  const type = q['object_type'] || undefined;
  const record = q['record_id']?.trim() || undefined;
  const filtered = kinds.length > 0 || type !== undefined || record !== undefined;
  const page = c.activity.newestFirst(
    // A filter that matches little scans 50,000 entries a page at most.
    { ...(before === undefined ? {} : { before }), limit, ...(filtered ? { scan: 50_000 } : {}) },
    (entry) => {
      // A job's steps show in its entry (its progress and failed rows), not one by one.
      if (entry.kind === 'import' && entry.event.type === 'import.progressed') return false;
      if (kinds.length > 0 && !kinds.includes(entry.kind)) return false;
      if (type === undefined && record === undefined) return true;
      const facts = entryFacts(entry);
      if (type !== undefined && facts.objectType !== type) return false;
      return record === undefined || facts.recordId === record;
    },
  );
  return {
    entries: page.entries.map((e) => entryBody(c.store, e)),
    next_before: page.next ?? null,
    latest: c.activity.latest,
  };
}

// ---------------------------------------------------------------- records

function definitions(c: ConsoleContext, type: string) {
  const model = propertiesOf(c.store);
  return model
    .visible(c.teamId, type, null)
    .map((def) =>
      def.options === undefined ? def : { ...def, options: model.optionsOn(def, undefined) },
    );
}

export function recordTypes(c: ConsoleContext): Record<string, unknown> {
  const records = recordsOf(c.store);
  return { data: OBJECT_TYPES.map((type) => ({ object_type: type, count: records.count(type) })) };
}

export function schema(c: ConsoleContext, typeText: string): Record<string, unknown> {
  const type = objectTypeOf(typeText);
  return { object_type: type, properties: definitions(c, type) };
}

/** A page of records: the --where filter (parsed by the page), sort and page number. */
export function records(c: ConsoleContext, typeText: string, q: Query): Record<string, unknown> {
  const type = objectTypeOf(typeText);
  const filter = jsonParam<FilterEntry[]>(q, 'filter');
  const sort = jsonParam<SortEntry[]>(q, 'sort');
  const combinator = (q['combinator'] || undefined) as Combinator | undefined;
  const limit = limitOf(q, 25, 50);
  const page = positive(q, 'page') ?? 1;
  const result = runQuery(
    c.store,
    c.teamId,
    type,
    {
      filter,
      sort,
      combinator,
      limit,
      page,
      deleted: q['deleted'] === 'true',
      include_total: true,
    },
    { field: (path) => path },
  );
  const store = recordsOf(c.store);
  return {
    object_type: type,
    page,
    limit,
    total: result.total,
    has_more: result.has_more,
    data: result.data.map((row) => {
      const record = store.get(type, row.id);
      const values: Record<string, unknown> = {};
      for (const [slug, value] of Object.entries(row.properties)) {
        values[slug] = referenceBody(c.store, c.teamId, type, slug, value);
      }
      return { id: row.id, deleted_at: record?.deleted_at ?? null, values };
    }),
  };
}

/** One record: every value (references as links), its history and the runs it fired. */
export function record(c: ConsoleContext, typeText: string, id: string): Record<string, unknown> {
  const type = objectTypeOf(typeText);
  const found = recordsOf(c.store).get(type, id);
  const history = c.activity.changesOf(type, id).map((entry) => {
    const at = new Date(entry.atMs).toISOString();
    if (entry.kind !== 'record') return { seq: entry.seq, at };
    const e = entry.event;
    return {
      seq: entry.seq,
      at,
      type: e.type,
      source: e.source,
      cause: causeBody(entry.cause),
      changes:
        e.type === 'record.created' || e.type === 'record.updated'
          ? changesOf(e.before, e.after)
          : [],
    };
  });
  if (found === undefined && history.length === 0) {
    throw notFound(`No ${type} record has the id ${id}.`);
  }
  const runs = runsOf(c.store)
    .list(c.teamId)
    .filter((run) => run.trigger.record_id === id)
    .reverse()
    .slice(0, 100)
    .map((run) => runSummary(c.store, run));
  const values = Object.entries(found?.default ?? {}).map(([slug, value]) => ({
    slug,
    value: referenceBody(c.store, c.teamId, type, slug, value),
  }));
  return {
    object_type: type,
    id,
    exists: found !== undefined,
    label: labelOf(found?.default),
    created_at: found?.created_at ?? null,
    updated_at: found?.updated_at ?? null,
    deleted_at: found?.deleted_at ?? null,
    version: found?.version ?? null,
    properties: definitions(c, type),
    values,
    lists: found?.lists ?? {},
    history: history.reverse(),
    runs,
  };
}

// ---------------------------------------------------------------- automations and runs

/** The names the automations' ids are shown with: webhooks, contact views, contact properties. */
function names(c: ConsoleContext) {
  return {
    webhooks: Object.fromEntries(
      webhooksOf(c.store)
        .list(c.teamId)
        .map((w) => [w.id, w.name]),
    ),
    contact_views: Object.fromEntries(
      contactViewsOf(c.store)
        .list(c.teamId)
        .map((v) => [v.id, v.name]),
    ),
    contact_properties: Object.fromEntries(
      propertiesOf(c.store)
        .all(c.teamId, 'contact')
        .map((d) => [d.id, d.slug]),
    ),
  };
}

export function automations(c: ConsoleContext): Record<string, unknown> {
  const model = automationsOf(c.store);
  const counts = new Map<string, { runs: number; waiting: number; failed: number }>();
  for (const run of runsOf(c.store).list(c.teamId)) {
    const n = counts.get(run.automation.id) ?? { runs: 0, waiting: 0, failed: 0 };
    n.runs++;
    if (run.status === 'waiting') n.waiting++;
    if (run.status === 'failed') n.failed++;
    counts.set(run.automation.id, n);
  }
  const data = AUTOMATION_OBJECT_TYPES.flatMap((type) =>
    model.list(c.teamId, type).map((a) => ({
      ...automationBody(a),
      runs: counts.get(a.id) ?? { runs: 0, waiting: 0, failed: 0 },
    })),
  );
  return { data, names: names(c), ...overview(c) };
}

export function runs(c: ConsoleContext, q: Query): Record<string, unknown> {
  const limit = limitOf(q, 50, 200);
  const before = positive(q, 'before');
  const automationId = q['automation_id'] || undefined;
  const status = q['status'] || undefined;
  const all = runsOf(c.store).list(c.teamId);
  const out: Run[] = [];
  let next: number | null = null;
  for (let i = all.length - 1; i >= 0; i--) {
    const run = all[i]!;
    if (before !== undefined && run.sequence >= before) continue;
    if (automationId !== undefined && run.automation.id !== automationId) continue;
    if (status !== undefined && run.status !== status) continue;
    if (out.length === limit) {
      next = out[out.length - 1]!.sequence;
      break;
    }
    out.push(run);
  }
  return { data: out.map((run) => runSummary(c.store, run)), next_before: next, ...overview(c) };
}

export function run(c: ConsoleContext, id: string): Record<string, unknown> {
  const found = runsOf(c.store).get(c.teamId, id);
  if (found === undefined) {
    throw notFound(
      `No run has the id ${id}: the sandbox keeps the latest 10,000 finished runs and every run under way.`,
    );
  }
  // The deliveries its webhook steps made: their bodies name the run.
  const needle = `"run_id":${JSON.stringify(runId(found))}`;
  const deliveries = [];
  for (const d of webhooksOf(c.store).newestFirst()) {
    if (d.body?.includes(needle)) deliveries.push(deliveryBody(c.store, d));
  }
  return { run: runBody(c.store, found), deliveries, names: names(c), ...overview(c) };
}

// ---------------------------------------------------------------- outbox

/** What email and LinkedIn steps would have sent, newest first, one message per recipient. */
export function outbox(c: ConsoleContext, q: Query): Record<string, unknown> {
  const limit = limitOf(q, 100, 500);
  const kind = q['kind'] || undefined;
  const messages: Record<string, unknown>[] = [];
  const all = runsOf(c.store).list(c.teamId);
  for (let i = all.length - 1; i >= 0 && messages.length < limit; i--) {
    const run = all[i]!;
    const { actions } = run.automation;
    for (let s = run.steps.length - 1; s >= 0; s--) {
      const step = run.steps[s]!;
      const action = actions[s];
      if (action === undefined || (action.type !== 'email' && action.type !== 'linkedin')) continue;
      if (kind !== undefined && action.type !== kind) continue;
      const recipients = (step.detail?.['recipients'] ?? []) as Record<string, unknown>[];
      recipients.forEach((r, index) => {
        messages.push({
          id: `${runId(run)}.${s}.${index}`,
          kind: action.type,
          at: step.finished_at ?? step.started_at,
          contact_id: r['contact_id'],
          to: action.type === 'email' ? r['address'] : r['provider_value'],
          subject: r['subject'] ?? null,
          error: r['error'] ?? null,
          template_id: action.template_id,
          send_as_user_id: action.send_as_user_id,
          recipient_view_id: action.recipient_view_id,
          automation_id: run.automation.id,
          automation_name: run.automation.name,
          object_type: run.trigger.object_type,
          record_id: run.trigger.record_id,
          record_label: labelOf(run.trigger.after),
          run_id: runId(run),
        });
      });
    }
  }
  return { data: messages.slice(0, limit), ...overview(c) };
}

// ---------------------------------------------------------------- webhooks and deliveries

export function webhooks(c: ConsoleContext): Record<string, unknown> {
  const model = webhooksOf(c.store);
  const counts = new Map<string, { total: number; failed: number; pending: number }>();
  for (const d of model.newestFirst()) {
    const n = counts.get(d.webhook_id) ?? { total: 0, failed: 0, pending: 0 };
    n.total++;
    if (d.status === 'failed') n.failed++;
    if (d.status === 'pending') n.pending++;
    counts.set(d.webhook_id, n);
  }
  return {
    data: model.list(c.teamId).map((w) => ({
      ...webhookView(w),
      deliveries: counts.get(w.id) ?? { total: 0, failed: 0, pending: 0 },
    })),
  };
}

export function deliveries(c: ConsoleContext, q: Query): Record<string, unknown> {
  const limit = limitOf(q, 50, 200);
  const webhookId = q['webhook_id'] || undefined;
  const status = q['status'] || undefined;
  const type = q['type'] || undefined;
  const before = positive(q, 'before');
  const out: Record<string, unknown>[] = [];
  let next: number | null = null;
  for (const d of webhooksOf(c.store).newestFirst()) {
    if (d.team_id !== c.teamId) continue;
    if (before !== undefined && d.seq >= before) continue;
    if (webhookId !== undefined && d.webhook_id !== webhookId) continue;
    if (status !== undefined && d.status !== status) continue;
    if (type !== undefined && d.type !== type) continue;
    if (out.length === limit) {
      next = out[out.length - 1]!['seq'] as number;
      break;
    }
    out.push({ ...deliveryBody(c.store, d), seq: d.seq });
  }
  return { data: out, next_before: next };
}

/** The requests the attempts of a delivery sent (from the activity log, while it keeps them). */
function sentRequests(c: ConsoleContext, deliveryId: string): Map<number, SentRequest> {
  const sent = new Map<number, SentRequest>();
  c.activity.newestFirst({ limit: Number.MAX_SAFE_INTEGER, scan: 200_000 }, (entry) => {
    if (
      entry.kind === 'delivery' &&
      entry.event.type === 'delivery.attempted' &&
      entry.event.delivery.delivery_id === deliveryId
    ) {
      sent.set(entry.event.attempt.attempt, entry.event.request);
    }
    return false;
  });
  return sent;
}

export function delivery(c: ConsoleContext, id: string): Record<string, unknown> {
  const d = webhooksOf(c.store).delivery(id);
  if (d === undefined || d.team_id !== c.teamId) {
    throw notFound(`No delivery has the id ${id}: the sandbox keeps the latest 10,000 that ended.`);
  }
  const sent = sentRequests(c, id);
  const lastAttempt = d.history.length;
  return {
    ...deliveryBody(c.store, d),
    body: d.body,
    body_truncated: d.body_truncated,
    attempt_history: d.history.map((a) => ({
      ...a,
      // An attempt's request as it left; the body is the delivery's (the same every attempt).
      request: sent.get(a.attempt) ?? null,
    })),
    resendable: d.type === 'delivery' && d.next_attempt_at === null && !d.body_truncated,
    last_attempt: lastAttempt,
  };
}

export function resend(c: ConsoleContext, id: string): Record<string, unknown> {
  const d = webhooksOf(c.store).delivery(id);
  if (d === undefined || d.team_id !== c.teamId) throw notFound(`No delivery has the id ${id}.`);
  const result = deliveriesOf(c.store).resend(d);
  if (!result.resent) {
    throw new SandboxError(
      409,
      'conflict',
      `The delivery ${id} cannot be resent: ${result.reason}.`,
    );
  }
  return deliveryBody(c.store, d);
}

// ---------------------------------------------------------------- requests

function requestRow(r: LoggedRequest): Record<string, unknown> {
  const {
    request_body: _req,
    response_body: _res,
    request_headers: _rh,
    response_headers: _sh,
    ...row
  } = r;
  return row;
}

export function requests(c: ConsoleContext, q: Query): Record<string, unknown> {
  const limit = limitOf(q, 100, 1000);
  const before = positive(q, 'before');
  const status = q['status'] || undefined;
  const path = q['path']?.trim() || undefined;
  const kind = q['kind'] || undefined;
  const keep = (r: LoggedRequest) => {
    if (kind !== undefined && r.kind !== kind) return false;
    if (path !== undefined && !`${r.path}${r.query}`.includes(path)) return false;
    if (status === undefined) return true;
    if (status === 'dropped') return r.status === null;
    if (/^[1-5]xx$/.test(status)) return r.status !== null && String(r.status)[0] === status[0];
    return String(r.status) === status;
  };
  const rows = c.requests.newestFirst({ ...(before === undefined ? {} : { before }), limit }, keep);
  return {
    data: rows.map(requestRow),
    next_before: rows.length === limit ? rows[rows.length - 1]!.seq : null,
    latest: c.requests.latest,
  };
}

export function request(c: ConsoleContext, id: string): Record<string, unknown> {
  const r = c.requests.get(id);
  if (r === undefined) {
    throw notFound(`No request ${id} in the log: it keeps the latest 1,000 requests.`);
  }
  return { ...r };
}

// ---------------------------------------------------------------- controls

export function controls(c: ConsoleContext): Record<string, unknown> {
  const runsModel = runsOf(c.store);
  return {
    faults: c.runtime.faults.toJSON(),
    runs_started: runsModel.started,
    ...overview(c),
  };
}

function bodyObject(body: unknown, known: readonly string[]): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw invalidRequest('The request body must be a JSON object.');
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw invalidRequest(`Unknown field '${unknown[0]}'; known fields: ${known.join(', ')}.`);
  }
  return body;
}

export function setFaults(c: ConsoleContext, body: unknown): Record<string, unknown> {
  changeFaults(c.runtime.faults, bodyObject(body, FAULT_BODY_FIELDS));
  return controls(c);
}

/** Move the clock by `seconds`, or to the next due step of a waiting run (`to: 'next_due'`). */
export function advance(c: ConsoleContext, body: unknown): Record<string, unknown> {
  const b = bodyObject(body, ['seconds', 'to']);
  let seconds = b['seconds'];
  if (b['to'] !== undefined) {
    if (b['to'] !== 'next_due') {
      throw invalidRequest(`to must be 'next_due', got ${JSON.stringify(b['to'])}.`);
    }
    const due = runsOf(c.store).nextDue();
    if (due === undefined) {
      throw new SandboxError(409, 'conflict', 'No run is waiting: there is no next due step.');
    }
    seconds = Math.max(0, Math.ceil((due - c.store.clock.nowMs()) / 1000));
  }
  moveClock(c.runtime, seconds);
  return controls(c);
}

export function reset(c: ConsoleContext, body: unknown): Record<string, unknown> {
  const b = bodyObject(body, ['seed']);
  if (b['seed'] !== undefined && b['seed'] !== 'demo') {
    throw invalidRequest(`seed must be 'demo' when given, got ${JSON.stringify(b['seed'])}.`);
  }
  c.runtime.reset(b['seed'] === 'demo' ? { seed: 'demo' } : {});
  return controls(c);
}

/**
 * The state as JSON, to read or share: every slice of the store, with webhook signing
 * secrets cut to their last 4 characters; the API key is not in it.
 */
export function exportState(c: ConsoleContext): Record<string, unknown> {
  const state = c.store.toJSON();
  const redact = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(redact);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        k === 'secret' && typeof v === 'string' && v.startsWith('whsec_')
          ? `whsec_…${v.slice(-4)}`
          : redact(v);
    }
    return out;
  };
  return {
    format: 'ws-sandbox-export',
    version: 1,
    team_id: c.teamId,
    exported_at: c.store.clock.iso(),
    sandbox_version: pkg.version,
    state: redact(state),
  };
}
