// Typed calls for triggered automations (`/v2/prism/{teamId}/{automationObjectType}/
// triggered_automations`), and for what `ws automations` reads besides: the team's webhooks
// (to name a webhook step's webhook), and two control endpoints of the ws sandbox that the
// hosted service does not have, automation runs and contact views. A service without them
// answers 404 or 405, which these calls turn into one clear error (`operation_unavailable`,
// exit 1).
import type { ApiClient } from './client.ts';
import { notOffered } from './errors.ts';
import type { AutomationType } from './object-types.ts';
import { type CallOptions, resource } from './resource.ts';
import type { AnswerOf, QueryOf, Schemas } from './types.ts';

export type Automation = Schemas['TriggeredAutomation'];
export type AutomationWrite = Schemas['AutomationWrite'];
export type AutomationKind = Schemas['AutomationKind'];
export type AutomationPage = AnswerOf<'listAutomations', 200>;
export type ActionItem = Schemas['ActionItem'];
export type Webhook = Schemas['Webhook'];

function automationsPath(client: ApiClient, type: AutomationType): string[] {
  return ['v2', 'prism', client.teamId, type, 'triggered_automations'];
}

/** GET …/triggered_automations → one page (at most 50). */
export async function listAutomations(
  client: ApiClient,
  type: AutomationType,
  page: {
    kind?: AutomationKind | undefined;
    listId?: string | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  } & CallOptions = {},
): Promise<AutomationPage> {
  const res = await client.request<AutomationPage>({
    method: 'GET',
    path: automationsPath(client, type),
    query: {
      kind: page.kind,
      list_id: page.listId,
      cursor: page.cursor,
      limit: page.limit,
    } satisfies QueryOf<'listAutomations'>,
    signal: page.signal,
  });
  return res.body;
}

const automations = resource(automationsPath);

/** GET …/triggered_automations/{id} → the automation. */
export const getAutomation = automations.get<Automation>;

/** POST …/triggered_automations → 201 with the created automation. */
export const createAutomation = automations.create<AutomationWrite, Automation>;

/** PUT …/triggered_automations/{id}: the whole automation replaced by `body`. */
export const replaceAutomation = automations.replace<AutomationWrite, Automation>;

/** DELETE …/triggered_automations/{id}. */
export const deleteAutomation = automations.remove;

/**
 * GET /v2/webhooks/{teamId} → every webhook of the team, to name the webhook of a webhook
 * step. While the hosted gateway keeps webhook routes a preview, the client answers
 * `webhooks_unavailable` (api/errors.ts).
 */
export { listWebhooks as listTeamWebhooks } from './webhooks.ts';

// ---------------------------------------------------------------- sandbox control endpoints

/** A run of an automation as the sandbox lists it (docs/sandbox-reference.md, "Runs endpoint"). */
export interface AutomationRun {
  id: string;
  sequence: number;
  automation_id: string;
  automation_name: string;
  object_type: string;
  record_id: string;
  list_id: string | null;
  status: 'waiting' | 'completed' | 'failed' | 'cancelled' | 'running';
  started_at: string;
  updated_at: string;
  finished_at: string | null;
  resume_at: string | null;
  trigger: {
    type: string;
    source: string;
    event: string;
    at: string;
    changes: Record<string, { from: unknown; to: unknown }>;
  };
  steps: AutomationRunStep[];
}

export interface AutomationRunStep {
  index: number;
  type: string;
  status: string;
  started_at?: string | null;
  finished_at?: string | null;
  until?: string;
  error?: { code: string; message: string };
  [field: string]: unknown;
}

export interface RunPage {
  data: AutomationRun[];
  has_more: boolean;
  next_after: number;
}

export const RUN_STATUSES = ['running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The largest page of the runs endpoint. */
export const MAX_RUN_PAGE = 1000;

/** A contact view stand-in of the sandbox (email and LinkedIn steps read their recipients from it). */
export interface ContactView {
  id: string;
  name: string;
  filter: unknown[];
  combinator: 'AND' | 'OR';
  list_id: string | null;
}

/** A 404 or 405 on a sandbox control endpoint: the service is not a ws sandbox. */
export function unavailable(err: unknown, what: string, instead: string): unknown {
  return notOffered(
    err,
    (answer) =>
      `This service does not offer ${what}: they are a feature of the ws sandbox, not of the API (it answered ${answer.method} ${new URL(answer.url).pathname} with ${answer.status}).`,
    instead,
  );
}

/** GET /__sandbox/automation_runs → one page of runs, oldest first, after sequence `after`. */
export async function listRuns(
  client: ApiClient,
  q: {
    automationId?: string | undefined;
    recordId?: string | undefined;
    objectType?: string | undefined;
    status?: RunStatus | undefined;
    after?: number | undefined;
    limit?: number | undefined;
  } & CallOptions = {},
): Promise<RunPage> {
  try {
    const res = await client.request<RunPage>({
      method: 'GET',
      path: '/__sandbox/automation_runs',
      query: {
        automation_id: q.automationId,
        record_id: q.recordId,
        object_type: q.objectType,
        status: q.status,
        after: q.after,
        limit: q.limit,
      },
      signal: q.signal,
    });
    return res.body;
  } catch (err) {
    throw unavailable(
      err,
      'automation runs',
      'Runs are recorded by `ws sandbox start`. To see whether an automation fires for a change on this service, run `ws automations test TYPE AUTOMATION --record ID --set slug=value`.',
    );
  }
}

/** GET /__sandbox/contact_views → the contact view stand-ins of the sandbox. */
export async function listContactViews(
  client: ApiClient,
  opts: CallOptions = {},
): Promise<ContactView[]> {
  try {
    const res = await client.request<{ data: ContactView[] }>({
      method: 'GET',
      path: '/__sandbox/contact_views',
      signal: opts.signal,
    });
    return res.body?.data ?? [];
  } catch (err) {
    throw unavailable(
      err,
      'a listing of contact views',
      'Contact views are made in the workspace app; name a contact view by its id (shown there).',
    );
  }
}
