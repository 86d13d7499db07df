// The Webhooks pages: the endpoints with their verification, their deliveries, and a
// delivery's page: the request as it was sent (headers with the signature, the body), every
// attempt's status, duration and answer, and a button that sends it again.

import { useState } from 'preact/hooks';
import {
  Choice,
  Headers,
  Json,
  Listing,
  Pending,
  Problem,
  postJson,
  query,
  StatusBadge,
  Table,
  Time,
  useData,
  useSession,
} from './ui.tsx';

interface Webhook {
  id: string;
  name: string;
  url: string;
  enabled: boolean;
  verified: boolean;
  verified_at: string | null;
  deliveries: { total: number; failed: number; pending: number };
}

interface DeliveryRow {
  delivery_id: string;
  webhook_name: string | null;
  webhook_id: string;
  type: string;
  event: string;
  status: string;
  status_code: number | null;
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  dead_lettered: boolean;
  seq: number;
}

export function WebhooksPage() {
  const hooks = useData<{ data: Webhook[] }>('webhooks');
  const [webhook, setWebhook] = useState('');
  const [status, setStatus] = useState('');
  const deliveries = useData<{ data: DeliveryRow[] }>(
    `deliveries${query({ webhook_id: webhook, status, limit: 100 })}`,
  );
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <Listing
        items={hooks.data?.data}
        error={hooks.error}
        what="webhooks"
        none={
          <>
            No webhook yet: <code>ws webhooks create</code> (or <code>ws webhooks listen</code>).
          </>
        }
      >
        {(endpoints) => (
          <Table caption="Endpoints" columns={['Name', 'URL', 'Enabled', 'Verified', 'Deliveries']}>
            {endpoints.map((w) => (
              <tr key={w.id}>
                <th scope="row">{w.name}</th>
                <td>
                  <code>{w.url}</code>
                </td>
                <td>{w.enabled ? 'yes' : 'no'}</td>
                <td>
                  {w.verified ? (
                    <>
                      yes, <Time at={w.verified_at} />
                    </>
                  ) : (
                    <span class="badge bad">not verified</span>
                  )}
                </td>
                <td>
                  {w.deliveries.total} ({w.deliveries.failed} failed, {w.deliveries.pending}{' '}
                  pending)
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Listing>
      <h3>Deliveries</h3>
      <form class="filters" onSubmit={(ev) => ev.preventDefault()}>
        <Choice
          label="Webhook"
          value={webhook}
          options={[['', 'any'], ...(hooks.data?.data ?? []).map((w) => [w.id, w.name] as const)]}
          onChange={setWebhook}
        />
        <Choice
          label="Status"
          value={status}
          options={[['', 'any'], 'success', 'failed', 'pending']}
          onChange={setStatus}
        />
      </form>
      <Listing
        items={deliveries.data?.data}
        error={deliveries.error}
        what="deliveries"
        none="No delivery."
      >
        {(rows) => (
          <div class="table-wrap">
            <Table
              caption="Deliveries, newest first"
              columns={['Delivery', 'Event', 'Webhook', 'Status', 'Attempts', 'Created']}
            >
              {rows.map((d) => (
                <tr key={d.delivery_id}>
                  <th scope="row">
                    <a href={`#/deliveries/${encodeURIComponent(d.delivery_id)}`}>
                      {d.delivery_id.slice(0, 8)}
                    </a>
                  </th>
                  <td>{d.event}</td>
                  <td>{d.webhook_name ?? d.webhook_id}</td>
                  <td>
                    <StatusBadge status={d.status} /> {d.status_code ?? ''}
                    {d.dead_lettered ? ' dead-lettered' : ''}
                  </td>
                  <td>{d.attempts}</td>
                  <td>
                    <Time at={d.created_at} />
                  </td>
                </tr>
              ))}
            </Table>
          </div>
        )}
      </Listing>
    </section>
  );
}

interface Attempt {
  attempt: number;
  created_at: string;
  status: string;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  response_body_truncated: boolean;
  duration_ms: number;
  request: { method: string; url: string; headers: Record<string, string> } | null;
}

interface DeliveryDetail extends DeliveryRow {
  url: string;
  body: string | null;
  body_truncated: boolean;
  not_sent: string | null;
  attempt_history: Attempt[];
  resendable: boolean;
}

export function DeliveryPage({ id }: { id: string }) {
  const session = useSession();
  const { data, error } = useData<DeliveryDetail>(`deliveries/${encodeURIComponent(id)}`);
  const [said, setSaid] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const resend = async () => {
    try {
      await postJson(session, `deliveries/${encodeURIComponent(id)}/resend`);
      setSaid('Resent: the new attempt shows below when it ends.');
      setProblem(undefined);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  if (data === undefined) {
    return <Pending title={`Delivery ${id}`} what="the delivery" error={error} />;
  }
  return (
    <section aria-labelledby="delivery-title">
      <p>
        <a href="#/webhooks">Webhooks and deliveries</a>
      </p>
      <h2 id="delivery-title">
        {data.type === 'verification' ? 'Handshake' : `Delivery of ${data.event}`}{' '}
        <StatusBadge status={data.status} />
      </h2>
      <Problem text={error ?? problem} />
      <dl>
        <dt>Delivery id</dt>
        <dd>
          <code>{data.delivery_id}</code>
        </dd>
        <dt>Webhook</dt>
        <dd>
          {data.webhook_name ?? data.webhook_id} <code>{data.url}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={data.created_at} />
        </dd>
        <dt>Next attempt</dt>
        <dd>{data.next_attempt_at === null ? 'none' : <Time at={data.next_attempt_at} />}</dd>
        <dt>Dead-lettered</dt>
        <dd>{data.dead_lettered ? 'yes' : 'no'}</dd>
      </dl>
      {data.not_sent !== null ? <p class="problem">{data.not_sent}</p> : null}
      {data.type === 'delivery' ? (
        <p>
          <button type="button" onClick={resend} disabled={!data.resendable}>
            Resend
          </button>{' '}
          <span class="muted">
            {data.resendable
              ? 'One more attempt now, with the same id and body, signed anew.'
              : data.next_attempt_at !== null
                ? 'An attempt is already due.'
                : 'Its body was cut when it ended: it cannot be resent whole.'}
          </span>
        </p>
      ) : null}
      <p role="status">{said ?? ''}</p>
      <h3>Request body</h3>
      <Json text={data.body} label="request body" />
      {data.body_truncated ? <p class="muted">Cut at 65,536 bytes.</p> : null}
      <h3>Attempts</h3>
      {data.attempt_history.length === 0 ? <p class="muted">No attempt yet.</p> : null}
      <ol class="attempts">
        {data.attempt_history.map((a) => (
          <li key={a.attempt}>
            <h4>
              Attempt {a.attempt}: <StatusBadge status={a.status} />{' '}
              {a.status_code === null ? 'no answer' : `answered ${a.status_code}`} in{' '}
              {a.duration_ms} ms, <Time at={a.created_at} />
            </h4>
            {a.error !== null ? <p class="problem">{a.error}</p> : null}
            {a.request === null ? (
              <p class="muted">
                The request of this attempt was made before the console's log began.
              </p>
            ) : (
              <Headers
                headers={a.request.headers}
                caption={`${a.request.method} ${a.request.url}`}
              />
            )}
            <h5>Answer body{a.response_body_truncated ? ' (cut)' : ''}</h5>
            <Json text={a.response_body} label={`answer body of attempt ${a.attempt}`} />
          </li>
        ))}
      </ol>
    </section>
  );
}
