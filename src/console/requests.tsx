// The Requests page: the sandbox's request log (API and control requests, newest first,
// the latest 1,000), with their bodies; filter by status and path. The API key is shown by
// its last 4 characters only (the log keeps no more).

import { useState } from 'preact/hooks';
import {
  Choice,
  Headers,
  Json,
  Listing,
  Pending,
  query,
  StatusBadge,
  Table,
  Time,
  useData,
} from './ui.tsx';

interface Row {
  seq: number;
  request_id: string;
  at: string;
  method: string;
  path: string;
  query: string;
  kind: string;
  status: number | null;
  note: string | null;
  duration_ms: number;
  replay: boolean;
  key_last4: string | null;
}

interface Body {
  text: string;
  bytes: number;
  truncated: boolean;
}

interface Detail extends Row {
  request_headers: Record<string, string>;
  response_headers: Record<string, string>;
  request_body: Body | null;
  response_body: Body | null;
}

export function RequestsPage() {
  const [status, setStatus] = useState('');
  const [path, setPath] = useState('');
  const [kind, setKind] = useState('');
  const { data, error } = useData<{ data: Row[] }>(
    `requests${query({ status, path, kind, limit: 200 })}`,
  );
  return (
    <section aria-labelledby="requests-title">
      <h2 id="requests-title">Requests</h2>
      <form class="filters" onSubmit={(ev) => ev.preventDefault()}>
        <Choice
          label="Status"
          value={status}
          options={[['', 'any'], '2xx', '4xx', '5xx', ['dropped', 'dropped connection']]}
          onChange={setStatus}
        />
        <label>
          Path contains
          <input value={path} onInput={(ev) => setPath((ev.target as HTMLInputElement).value)} />
        </label>
        <Choice
          label="Kind"
          value={kind}
          options={[
            ['', 'API and control'],
            ['api', 'API'],
            ['control', 'control (/__sandbox)'],
          ]}
          onChange={setKind}
        />
      </form>
      <Listing items={data?.data} error={error} what="requests" none="No request.">
        {(rows) => (
          <div class="table-wrap">
            <Table
              caption="Requests, newest first (the latest 1,000 are kept)"
              columns={['Time', 'Request', 'Status', 'Duration', 'Request id', 'Key']}
            >
              {rows.map((r) => (
                <tr key={r.seq}>
                  <td>
                    <Time at={r.at} />
                  </td>
                  <th scope="row">
                    <a href={`#/requests/${encodeURIComponent(r.request_id)}`}>
                      {r.method} {r.path}
                      {r.query}
                    </a>
                  </th>
                  <td>
                    <StatusBadge status={r.status} />
                    {r.replay ? ' replay' : ''}
                    {r.note ? ` ${r.note}` : ''}
                  </td>
                  <td>{r.duration_ms} ms</td>
                  <td>
                    <code>{r.request_id}</code>
                  </td>
                  <td>{r.key_last4 === null ? 'none' : `…${r.key_last4}`}</td>
                </tr>
              ))}
            </Table>
          </div>
        )}
      </Listing>
    </section>
  );
}

function BodyView({ body, label }: { body: Body | null; label: string }) {
  return (
    <>
      <Json text={body?.text} label={label} />
      {body?.truncated ? (
        <p class="muted">The first 16 KiB of {body.bytes} bytes (the log keeps no more).</p>
      ) : null}
    </>
  );
}

export function RequestPage({ id }: { id: string }) {
  const { data, error } = useData<Detail>(`requests/${encodeURIComponent(id)}`, false);
  if (data === undefined) {
    return <Pending title={`Request ${id}`} what="the request" error={error} />;
  }
  return (
    <section aria-labelledby="request-title">
      <p>
        <a href="#/requests">All requests</a>
      </p>
      <h2 id="request-title">
        {data.method} {data.path}
        {data.query} <StatusBadge status={data.status} />
      </h2>
      <dl>
        <dt>Request id</dt>
        <dd>
          <code>{data.request_id}</code>
        </dd>
        <dt>When</dt>
        <dd>
          <Time at={data.at} />, {data.duration_ms} ms
        </dd>
        <dt>API key</dt>
        <dd>{data.key_last4 === null ? 'none' : `…${data.key_last4}`}</dd>
        <dt>Idempotent replay</dt>
        <dd>{data.replay ? 'yes' : 'no'}</dd>
      </dl>
      <Headers headers={data.request_headers} caption="Request headers (those the log keeps)" />
      <h3>Request body</h3>
      <BodyView body={data.request_body} label="request body" />
      <Headers headers={data.response_headers} caption="Answer headers" />
      <h3>Answer body</h3>
      <BodyView body={data.response_body} label="answer body" />
    </section>
  );
}
