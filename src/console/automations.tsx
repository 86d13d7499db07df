// The Automations pages: each automation's rule in the words `ws automations get` shows
// (src/automations-as-code/render.ts, the same code), its runs with their trigger and each
// step's state, a button that moves the sandbox clock to the next due step of a waiting
// run, and a run's page: the write that fired it (before → after), each step (waiting until
// …, the webhook delivery it made, each email recipient with the rendered subject, LinkedIn
// recipients, the agent call it would make).

import { useContext, useState } from 'preact/hooks';
import type { AutomationRun } from '../api/automations.ts';
import type { Schemas } from '../api/types.ts';
import {
  actionLines,
  type Names,
  triggerLines,
  whereLines,
} from '../automations-as-code/render.ts';
import { type RunSummary, StepsText } from './activity.tsx';
import {
  Changes,
  Choice,
  Json,
  Listing,
  LiveContext,
  Pending,
  Problem,
  postJson,
  query,
  recordHref,
  StatusBadge,
  Table,
  Time,
  useData,
  useSession,
} from './ui.tsx';

interface NameMaps {
  webhooks: Record<string, string>;
  contact_views: Record<string, string>;
  contact_properties: Record<string, string>;
}

function namesOf(maps: NameMaps): Names {
  return {
    webhookName: (id) => maps.webhooks[id],
    // The map holds every webhook of the team: an id not in it names a deleted one.
    webhookGone: (id) => maps.webhooks[id] === undefined,
    contactViewName: (id) => maps.contact_views[id],
    contactPropertySlug: (id) => maps.contact_properties[id],
  };
}

type Automation = Schemas['TriggeredAutomation'];

interface AutomationRow extends Automation {
  runs: { runs: number; waiting: number; failed: number };
}

/** The button that moves the clock to when the next waiting run falls due. */
export function AdvanceToNextDue() {
  const session = useSession();
  const live = useContext(LiveContext);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const advance = async () => {
    try {
      const r = await postJson<{ now: string }>(session, 'clock/advance', { to: 'next_due' });
      setStatus(`The clock is now ${r.now}.`);
      setProblem(undefined);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div class="advance">
      <button type="button" onClick={advance} disabled={live.next_due === null}>
        Advance the clock to the next due step
      </button>{' '}
      {live.next_due === null ? (
        <span class="muted">No run is waiting.</span>
      ) : (
        <span>
          Next due: <Time at={live.next_due} />
        </span>
      )}
      <p role="status" class="muted">
        {status ?? ''}
      </p>
      <Problem text={problem} />
    </div>
  );
}

export function RunsTable({ runs, caption }: { runs: RunSummary[]; caption: string }) {
  return (
    <div class="table-wrap">
      <Table
        caption={caption}
        columns={['Run', 'Automation', 'Trigger', 'Record', 'Status', 'Steps', 'Started']}
      >
        {runs.map((r) => (
          <tr key={r.id}>
            <th scope="row">
              <a href={`#/runs/${encodeURIComponent(r.id)}`}>{r.id}</a>
            </th>
            <td>{r.automation_name}</td>
            <td>
              {r.trigger.event} ({r.trigger.source})
            </td>
            <td>
              <a href={recordHref(r.object_type, r.record_id)}>{r.record_label ?? r.record_id}</a>
            </td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>
              <StepsText steps={r.steps} />
            </td>
            <td>
              <Time at={r.started_at} />
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

export function AutomationsPage({ automationId }: { automationId?: string | undefined }) {
  const { data, error } = useData<{ data: AutomationRow[]; names: NameMaps }>('automations');
  const [status, setStatus] = useState('');
  const runs = useData<{ data: RunSummary[] }>(
    `runs${query({ automation_id: automationId, status, limit: 100 })}`,
  );
  const names = data === undefined ? undefined : namesOf(data.names);
  const shown = data?.data.filter((a) => automationId === undefined || a.id === automationId);
  return (
    <section aria-labelledby="automations-title">
      <h2 id="automations-title">Automations</h2>
      <AdvanceToNextDue />
      <Listing
        items={shown}
        error={error}
        what="automations"
        none={
          <>
            No automation yet: create one with <code>ws automations create</code>.
          </>
        }
      >
        {(automations) => (
          <ul class="automations">
            {automations.map((a) => (
              <li key={a.id}>
                <h3>
                  {a.name}{' '}
                  <span class="muted">
                    ({a.object_type}, {a.kind})
                  </span>{' '}
                  {a.enabled === false ? <span class="badge bad">disabled</span> : null}
                </h3>
                <div class="rule">
                  <p class="rule-label">When</p>
                  <ul>
                    {[...triggerLines(a), ...whereLines(a)].map((line) => (
                      <li key={line}>
                        <code>{line}</code>
                      </li>
                    ))}
                  </ul>
                  <p class="rule-label">Then</p>
                  <ul>
                    {actionLines(a, names).map((line, i) => (
                      <li key={i}>
                        <code>{line}</code>
                      </li>
                    ))}
                  </ul>
                </div>
                <p>
                  <a href={`#/automations/${encodeURIComponent(a.id)}`}>
                    {a.runs.runs} run{a.runs.runs === 1 ? '' : 's'}
                  </a>
                  {a.runs.waiting > 0 ? `, ${a.runs.waiting} waiting` : ''}
                  {a.runs.failed > 0 ? `, ${a.runs.failed} failed` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Listing>
      <h3>Runs{automationId === undefined ? '' : ' of this automation'}</h3>
      {automationId === undefined ? null : (
        <p>
          <a href="#/automations">Every automation</a>
        </p>
      )}
      <Choice
        label="Status"
        value={status}
        options={[['', 'any'], 'running', 'waiting', 'completed', 'failed', 'cancelled']}
        onChange={setStatus}
      />
      <Listing items={runs.data?.data} error={runs.error} what="runs" none="No run.">
        {(rows) => <RunsTable runs={rows} caption="Runs, newest first" />}
      </Listing>
    </section>
  );
}

interface RunStep {
  index: number;
  type: string;
  status: string;
  started_at?: string;
  finished_at?: string | null;
  until?: string;
  webhook_id?: string;
  event?: string;
  data?: unknown;
  would?: string;
  recipients?: Record<string, unknown>[];
  template_id?: string;
  subject?: string;
  error?: { code: string; message: string };
}

interface RunDetail {
  /** The run as the runs endpoint answers it, its steps with what the page reads of them. */
  run: Omit<AutomationRun, 'steps'> & { steps: RunStep[] };
  deliveries: {
    delivery_id: string;
    webhook_id: string;
    webhook_name: string | null;
    status: string;
    attempts: number;
  }[];
  names: NameMaps;
}

function StepDetail({ step, detail }: { step: RunStep; detail: RunDetail }) {
  const deliveries = detail.deliveries.filter((d) => d.webhook_id === step.webhook_id);
  return (
    <li>
      <h4>
        Step {step.index + 1}: {step.type} <StatusBadge status={step.status} />
      </h4>
      {step.until !== undefined ? (
        <p>
          {step.status === 'waiting' ? 'Waiting until' : 'Waited until'} <Time at={step.until} />
        </p>
      ) : null}
      {step.type === 'webhook' ? (
        <>
          <p>
            Event {step.event} to webhook{' '}
            {detail.names.webhooks[step.webhook_id ?? ''] ?? step.webhook_id}
            {deliveries.length === 0
              ? ': no delivery (the webhook is unknown, disabled or not verified, or its deliveries are no longer kept).'
              : ':'}
          </p>
          <ul>
            {deliveries.map((d) => (
              <li key={d.delivery_id}>
                <a href={`#/deliveries/${encodeURIComponent(d.delivery_id)}`}>
                  delivery {d.delivery_id}
                </a>{' '}
                <StatusBadge status={d.status} /> after {d.attempts} attempt
                {d.attempts === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {step.would !== undefined ? (
        <p>Would {step.would.replace(/^run/, 'run')} (recorded, not run).</p>
      ) : null}
      {step.recipients !== undefined ? (
        <ul>
          {step.recipients.map((r, i) => (
            <li key={i}>
              {step.type === 'email' ? 'Email to' : 'LinkedIn message to'}{' '}
              {String(r['address'] ?? r['provider_value'] ?? 'no address')} (
              <a href={recordHref('contact', String(r['contact_id']))}>contact</a>)
              {r['subject'] !== undefined ? `: “${String(r['subject'])}”` : ''}
              {r['error'] !== undefined ? (
                <span class="problem"> {(r['error'] as { message: string }).message}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {step.error !== undefined ? <p class="problem">{step.error.message}</p> : null}
    </li>
  );
}

export function RunPage({ id }: { id: string }) {
  const { data, error } = useData<RunDetail>(`runs/${encodeURIComponent(id)}`);
  if (data === undefined) {
    return <Pending title={`Run ${id}`} what="the run" error={error} />;
  }
  const { run } = data;
  const changes = Object.entries(run.trigger.changes).map(([slug, c]) => ({
    slug,
    before: c.from,
    after: c.to,
  }));
  return (
    <section aria-labelledby="run-title">
      <p>
        <a href={`#/automations/${encodeURIComponent(run.automation_id)}`}>
          Runs of “{run.automation_name}”
        </a>
      </p>
      <h2 id="run-title">
        Run {run.id} <StatusBadge status={run.status} />
      </h2>
      <Problem text={error} />
      <p>
        “{run.automation_name}” fired on {run.trigger.event} ({run.trigger.source}) of{' '}
        <a href={recordHref(run.object_type, run.record_id)}>{run.record_id}</a> at{' '}
        <Time at={run.trigger.at} />.
      </p>
      <Changes changes={changes} label="What the write changed" />
      {run.status === 'waiting' ? <AdvanceToNextDue /> : null}
      <h3>Steps</h3>
      <ol class="run-steps">
        {run.steps.map((s) => (
          <StepDetail key={s.index} step={s} detail={data} />
        ))}
      </ol>
      <details>
        <summary>The run as JSON</summary>
        <Json text={JSON.stringify(run)} label="the run as JSON" />
      </details>
    </section>
  );
}

interface Message {
  id: string;
  kind: string;
  at: string;
  to: unknown;
  contact_id: string;
  subject: string | null;
  error: { code: string; message: string } | null;
  template_id: string;
  send_as_user_id: string;
  automation_name: string;
  object_type: string;
  record_id: string;
  record_label: string | null;
  run_id: string;
}

/** The Outbox: what email and LinkedIn steps would have sent, one message per recipient. */
export function OutboxPage() {
  const [kind, setKind] = useState('');
  const { data, error } = useData<{ data: Message[] }>(`outbox${query({ kind })}`);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const message = data?.data.find((m) => m.id === open);
  return (
    <section aria-labelledby="outbox-title">
      <h2 id="outbox-title">Outbox</h2>
      <p class="muted">
        What email and LinkedIn steps would have sent. The sandbox sends nothing: it renders each
        subject and records the recipient.
      </p>
      <Choice
        label="Kind"
        value={kind}
        options={[['', 'email and LinkedIn'], 'email', ['linkedin', 'LinkedIn']]}
        onChange={setKind}
      />
      <Listing items={data?.data} error={error} what="the outbox" none="No message yet.">
        {(messages) => (
          <div class="outbox">
            <ul class="messages" aria-label="Messages, newest first">
              {messages.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    class="message"
                    aria-pressed={m.id === open}
                    onClick={() => setOpen(m.id)}
                  >
                    <span class="to">{String(m.to ?? 'no address')}</span>
                    <span class="subject">
                      {m.kind === 'email'
                        ? (m.subject ?? m.error?.message ?? '')
                        : 'LinkedIn message'}
                    </span>
                    <Time at={m.at} />
                  </button>
                </li>
              ))}
            </ul>
            {message === undefined ? (
              <p class="muted">Choose a message to read it.</p>
            ) : (
              <article class="message-view" aria-label="The message">
                <h3>
                  {message.kind === 'email'
                    ? (message.subject ?? '(no subject)')
                    : 'LinkedIn message'}
                </h3>
                <dl>
                  <dt>To</dt>
                  <dd>
                    {String(message.to ?? 'no address')} (
                    <a href={recordHref('contact', message.contact_id)}>contact</a>)
                  </dd>
                  <dt>From</dt>
                  <dd>user {message.send_as_user_id}</dd>
                  <dt>Template</dt>
                  <dd>{message.template_id}</dd>
                  <dt>Sent by</dt>
                  <dd>
                    “{message.automation_name}”,{' '}
                    <a href={`#/runs/${encodeURIComponent(message.run_id)}`}>
                      run {message.run_id}
                    </a>
                    , on{' '}
                    <a href={recordHref(message.object_type, message.record_id)}>
                      {message.object_type} {message.record_label ?? message.record_id}
                    </a>
                  </dd>
                  <dt>When</dt>
                  <dd>
                    <Time at={message.at} />
                  </dd>
                </dl>
                {message.error !== null ? <p class="problem">{message.error.message}</p> : null}
                <p class="muted">
                  The body is the template's; templates are kept in the product, so the sandbox
                  shows its id.
                </p>
              </article>
            )}
          </div>
        )}
      </Listing>
    </section>
  );
}
