// The sandbox console's page: signed in (the session cookie), it reads its session (the
// CSRF token for changes), listens to the sandbox's changes (server-sent events: every page
// reads its data again when something changed, without a reload) and shows the page the
// address's fragment names (#/activity, #/records/contact, #/runs/<id>, …).

import './app.css';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ActivityPage } from './activity.tsx';
import { AutomationsPage, OutboxPage, RunPage } from './automations.tsx';
import { ControlsPage } from './controls.tsx';
import { RecordPage, RecordsPage, RecordTypes } from './records.tsx';
import { RequestPage, RequestsPage } from './requests.tsx';
import {
  getJson,
  type Live,
  LiveContext,
  Problem,
  postJson,
  type Session,
  SessionContext,
  Time,
} from './ui.tsx';
import { DeliveryPage, WebhooksPage } from './webhooks.tsx';

const SECTIONS: [string, string][] = [
  ['activity', 'Activity'],
  ['records', 'Records'],
  ['automations', 'Automations'],
  ['outbox', 'Outbox'],
  ['webhooks', 'Webhooks'],
  ['requests', 'Requests'],
  ['controls', 'Controls'],
];

function route(): string[] {
  const hash = window.location.hash.replace(/^#\/?/, '');
  return hash === '' ? ['activity'] : hash.split('/').map((p) => decodeURIComponent(p));
}

function Page({ parts }: { parts: string[] }) {
  const [section, a, b] = parts;
  switch (section) {
    case 'records':
      if (a === undefined)
        return (
          <section aria-labelledby="records-title">
            <h2 id="records-title">Records</h2>
            <RecordTypes current={undefined} />
          </section>
        );
      return b === undefined ? <RecordsPage type={a} /> : <RecordPage type={a} id={b} />;
    case 'automations':
      return <AutomationsPage automationId={a} />;
    case 'runs':
      return <RunPage id={a ?? ''} />;
    case 'outbox':
      return <OutboxPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'deliveries':
      return <DeliveryPage id={a ?? ''} />;
    case 'requests':
      return a === undefined ? <RequestsPage /> : <RequestPage id={a} />;
    case 'controls':
      return <ControlsPage />;
    default:
      return <ActivityPage />;
  }
}

function sectionOf(parts: string[]): string {
  const s = parts[0];
  if (s === 'runs') return 'automations';
  if (s === 'deliveries') return 'webhooks';
  return s ?? 'activity';
}

function App() {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [live, setLive] = useState<Live>({ version: 0, now: '', next_due: null });
  const [connected, setConnected] = useState(false);
  const [parts, setParts] = useState(route());
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    getJson<Session & { now: string; next_due: string | null }>('session').then(
      (s) => {
        setSession(s);
        setLive((l) => ({ ...l, now: s.now, next_due: s.next_due }));
      },
      (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)),
    );
    const stream = new EventSource('/console/api/stream');
    stream.addEventListener('change', (ev) => {
      const data = JSON.parse((ev as MessageEvent<string>).data) as {
        now: string;
        next_due: string | null;
      };
      setLive((l) => ({ version: l.version + 1, now: data.now, next_due: data.next_due }));
    });
    stream.onopen = () => setConnected(true);
    stream.onerror = () => setConnected(false);
    const onHash = () => {
      setParts(route());
      main.current?.focus();
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      stream.close();
      window.removeEventListener('hashchange', onHash);
    };
  }, []);

  useEffect(() => {
    const names = Object.fromEntries(SECTIONS);
    document.title = `${names[sectionOf(parts)] ?? 'Activity'} · ws sandbox console`;
  }, [parts]);

  const signOut = async () => {
    if (session === undefined) return;
    await postJson(session, 'logout').catch(() => undefined);
    window.location.assign('/console/');
  };

  const current = sectionOf(parts);
  return (
    <SessionContext.Provider value={session}>
      <LiveContext.Provider value={live}>
        <button type="button" class="skip" onClick={() => main.current?.focus()}>
          Skip to the page
        </button>
        <header class="top">
          <h1>ws sandbox console</h1>
          {session === undefined ? null : (
            <p class="facts">
              team <code>{session.team_id}</code> · sandbox time <Time at={live.now} /> ·{' '}
              <span class={connected ? 'live on' : 'live off'} role="status">
                {connected ? 'live' : 'reconnecting…'}
              </span>{' '}
              <button type="button" class="link" onClick={signOut}>
                Sign out
              </button>
            </p>
          )}
        </header>
        <nav aria-label="Sections" class="sections">
          <ul>
            {SECTIONS.map(([id, label]) => (
              <li key={id}>
                <a href={`#/${id}`} aria-current={id === current ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          <Problem text={problem} />
          {session === undefined ? (
            problem === undefined ? (
              <p>Loading…</p>
            ) : null
          ) : (
            <Page parts={parts} />
          )}
        </main>
      </LiveContext.Provider>
    </SessionContext.Provider>
  );
}

const root = document.getElementById('app')!;
// The server's page says it is loading until the console takes its place.
root.textContent = '';
render(<App />, root);
