// The Controls page: the sandbox's faults (latency, fail rate, drop after commit, rate
// limit, body limit), its clock, reset, and an export of its state; the same controls as
// the /__sandbox endpoints.

import { useEffect, useState } from 'preact/hooks';
import { AdvanceToNextDue } from './automations.tsx';
import { API, Loading, Problem, postJson, Time, useData, useSession } from './ui.tsx';

interface Controls {
  faults: Record<string, number>;
  now: string;
  clock_offset_ms: number;
  next_due: string | null;
  runs_started: number;
}

const FAULTS: [string, string, string][] = [
  ['latency_ms', 'Latency (ms added to every API answer)', '1'],
  ['fail_rate', 'Fail rate (0 to 1: 500, 502, 503 or a dropped connection)', '0.01'],
  [
    'fail_after_commit',
    'Drop after commit (0 to 1: do the work, then drop the connection)',
    '0.01',
  ],
  ['rate_limit', 'Rate limit (requests per second per key; 0: none)', '1'],
  ['max_body_bytes', 'Body limit (bytes)', '1'],
];

export function ControlsPage() {
  const session = useSession();
  const { data, error } = useData<Controls>('controls');
  const [faults, setFaults] = useState<Record<string, string>>({});
  const [seconds, setSeconds] = useState('3600');
  const [seed, setSeed] = useState(false);
  const [said, setSaid] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const loaded = data !== undefined;
  useEffect(() => {
    if (data !== undefined) {
      setFaults(Object.fromEntries(Object.entries(data.faults).map(([k, v]) => [k, String(v)])));
    }
  }, [loaded]);
  const act = async (what: string, path: string, body: unknown) => {
    try {
      await postJson(session, path, body);
      setSaid(what);
      setProblem(undefined);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="controls-title">
      <h2 id="controls-title">Controls</h2>
      <Problem text={error ?? problem} />
      <p role="status">{said ?? ''}</p>
      {data === undefined ? (
        <Loading what="the controls" />
      ) : (
        <>
          <h3>Clock</h3>
          <p>
            Sandbox time: <Time at={data.now} /> ({Math.round(data.clock_offset_ms / 1000)} s ahead
            of real time). The clock only moves forward.
          </p>
          <form
            class="inline"
            onSubmit={(ev) => {
              ev.preventDefault();
              void act('The clock moved.', 'clock/advance', { seconds: Number(seconds) });
            }}
          >
            <label>
              Advance by (seconds)
              <input
                type="number"
                min="0"
                step="1"
                value={seconds}
                onInput={(ev) => setSeconds((ev.target as HTMLInputElement).value)}
              />
            </label>
            <button type="submit">Advance the clock</button>
          </form>
          <AdvanceToNextDue />
          <h3>Faults</h3>
          <form
            onSubmit={(ev) => {
              ev.preventDefault();
              const body = Object.fromEntries(
                Object.entries(faults).map(([k, v]) => [k, Number(v)]),
              );
              void act('Faults saved.', 'faults', body);
            }}
          >
            {FAULTS.map(([name, label, step]) => (
              <p key={name}>
                <label>
                  {label}
                  <input
                    type="number"
                    min="0"
                    step={step}
                    name={name}
                    value={faults[name] ?? ''}
                    onInput={(ev) =>
                      setFaults({ ...faults, [name]: (ev.target as HTMLInputElement).value })
                    }
                  />
                </label>
              </p>
            ))}
            <button type="submit">Save faults</button>
          </form>
          <h3>Reset</h3>
          <form
            class="inline"
            onSubmit={(ev) => {
              ev.preventDefault();
              if (
                !window.confirm(
                  'Empty the sandbox? Every record, automation, webhook and run goes.',
                )
              )
                return;
              void act('The sandbox was reset.', 'reset', seed ? { seed: 'demo' } : {});
            }}
          >
            <label class="check">
              <input
                type="checkbox"
                checked={seed}
                onChange={(ev) => setSeed((ev.target as HTMLInputElement).checked)}
              />{' '}
              Fill it with the demo data again
            </label>
            <button type="submit" class="danger">
              Reset the sandbox
            </button>
          </form>
          <h3>Export</h3>
          <p>
            <a href={`${API}/export`} download>
              Download the state as JSON
            </a>{' '}
            <span class="muted">
              (every slice of the store; webhook secrets cut to their last 4 characters, no API
              key).
            </span>
          </p>
        </>
      )}
    </section>
  );
}
