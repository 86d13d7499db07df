// Wait steps suspend a run on the sandbox clock: by delay_seconds and by a 5-field cron
// expression in a time zone, across a daylight-saving change; runs that fall due proceed
// when the clock is advanced, and when real time passes with no request arriving; waiting
// runs survive a restart with a data file, end with a reset, and are cancelled with their
// automation, whose replacement does not change a run under way.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runsOf } from '../../../src/sandbox/resources/automations/runs.ts';
import { launchSandbox } from '../../../src/sandbox/sandbox.ts';
import { tempDir } from '../helpers.ts';
import {
  AGENT_ID,
  api,
  createAutomation,
  createRecord,
  ok,
  runs,
  sandboxFor,
  WEBHOOK_ID,
} from './helpers.ts';

const webhook = { type: 'webhook', webhook_id: WEBHOOK_ID };
const agent = { type: 'agent', agent_id: AGENT_ID };
const onCreate = (name: string, actions: unknown[]) => ({
  kind: 'lifecycle',
  name,
  on_create: true,
  state: { filter: [] },
  actions,
});

// biome-ignore lint/suspicious/noExplicitAny: tests read answers freely
const statuses = (run: any) => run.steps.map((s: { status: string }) => s.status);

/** The UTC offset of Europe/Paris at an instant, like "GMT+1". */
function parisOffset(ms: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', timeZoneName: 'shortOffset' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')!.value;
}

describe('automations: wait steps', () => {
  test('by delay: waiting until the clock passes it, then the next steps run', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    await createAutomation(
      sandbox,
      'deal',
      onCreate('later', [webhook, { type: 'wait', delay_seconds: 3600 }, agent]),
    );
    await createRecord(sandbox, 'deal', { name: 'd' });
    let [run] = await runs(sandbox);
    assert.equal(run.status, 'waiting');
    assert.deepEqual(statuses(run), ['dispatched', 'waiting', 'pending']);
    const until = Date.parse(run.started_at) + 3600_000;
    assert.equal(run.resume_at, new Date(until).toISOString());
    assert.equal(run.steps[1].until, new Date(until).toISOString());

    ok(await http.control('POST', 'clock/advance', { seconds: 1800 }));
    [run] = await runs(sandbox);
    assert.deepEqual(
      [run.status, statuses(run)],
      ['waiting', ['dispatched', 'waiting', 'pending']],
    );

    const advanced = ok(await http.control('POST', 'clock/advance', { seconds: 1800 })).body.now;
    [run] = await runs(sandbox);
    assert.deepEqual(
      [run.status, statuses(run)],
      ['completed', ['dispatched', 'completed', 'recorded']],
    );
    assert.equal(run.resume_at, null);
    assert.ok(Date.parse(run.steps[1].finished_at) >= until);
    assert.ok(Date.parse(run.steps[2].started_at) <= Date.parse(advanced));
    assert.equal(run.finished_at, run.steps[2].finished_at);
  });

  test('by cron in a time zone, across a daylight-saving change', async (t) => {
    // Real time stands still for the sandbox (created after this), on a fixed date: the
    // steps below land one second before and at 09:00 in Paris, however long the requests
    // take on a busy machine, whatever today's date.
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2025, 2, 1, 12) });
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    // The sandbox clock moves to 10:00 UTC the day before Paris next changes its offset.
    const now = Date.parse(ok(await http.control('GET', 'clock')).body.now);
    let day = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate() + 2,
      10,
    );
    while (parisOffset(day) === parisOffset(day + 86_400_000)) day += 86_400_000;
    const before = parisOffset(day);
    const after = parisOffset(day + 86_400_000);
    ok(await http.control('POST', 'clock/advance', { seconds: (day - now) / 1000 }));

    await createAutomation(
      sandbox,
      'deal',
      onCreate('nine in Paris', [
        { type: 'wait', cron_expression: '0 9 * * *', timezone: 'Europe/Paris' },
        webhook,
        { type: 'wait', cron_expression: '0 9 * * *', timezone: 'Europe/Paris' },
      ]),
    );
    await createAutomation(
      sandbox,
      'deal',
      onCreate('a day of seconds', [{ type: 'wait', delay_seconds: 86400 }]),
    );
    await createRecord(sandbox, 'deal', { name: 'd' });
    const [cron, delay] = await runs(sandbox);
    const next = new Date(day + 86_400_000).toISOString().slice(0, 10);
    // 09:00 in Paris on the day after the change is 07:00 UTC in summer time (GMT+2) and
    // 08:00 UTC in winter time (GMT+1): the offset after the change decides, not the one before.
    const nine = after === 'GMT+2' ? `${next}T07:00:00.000Z` : `${next}T08:00:00.000Z`;
    assert.notEqual(before, after);
    assert.equal(cron.steps[0].until, nine);
    assert.equal(
      delay.steps[0].until,
      new Date(Date.parse(delay.started_at) + 86_400_000).toISOString(),
      'a delay counts seconds, whatever the offset',
    );

    ok(
      await http.control('POST', 'clock/advance', { seconds: (Date.parse(nine) - day) / 1000 - 1 }),
    );
    assert.deepEqual(statuses((await runs(sandbox))[0]), ['waiting', 'pending', 'pending']);
    ok(await http.control('POST', 'clock/advance', { seconds: 1 }));
    const [resumed] = await runs(sandbox);
    assert.deepEqual(statuses(resumed), ['completed', 'dispatched', 'waiting']);
    const dayAfter = new Date(Date.parse(nine) + 86_400_000).toISOString();
    assert.equal(resumed.steps[2].until, dayAfter, 'the next 09:00, the offset now unchanged');
  });

  test('with the real clock, a run falls due without any request arriving', async (t) => {
    const sandbox = await sandboxFor(t);
    await createAutomation(
      sandbox,
      'deal',
      onCreate('soon', [{ type: 'wait', delay_seconds: 1.5 }, agent]),
    );
    await createRecord(sandbox, 'deal', { name: 'd' });
    const [run] = runsOf(sandbox.store).list(sandbox.teamId);
    assert.equal(run!.status, 'waiting');
    const deadline = Date.now() + 10_000;
    while (run!.status === 'waiting' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(run!.status, 'completed', 'resumed by the timer, not by a request');
    assert.deepEqual(statuses((await runs(sandbox))[0]), ['completed', 'recorded']);
  });

  test('waiting runs survive a restart with a data file and proceed there', async (t) => {
    const dir = await tempDir(t);
    const dataFile = join(dir, 'sandbox.json');
    const first = await launchSandbox({ dataFile });
    await createAutomation(
      first,
      'deal',
      onCreate('later', [{ type: 'wait', delay_seconds: 600 }, webhook]),
    );
    await createAutomation(first, 'deal', onCreate('at once', [webhook, agent]));
    await createRecord(first, 'deal', { name: 'd' });
    const [waiting, instant] = await runs(first);
    assert.deepEqual(
      [instant.status, statuses(instant)],
      ['completed', ['dispatched', 'recorded']],
    );
    await first.close();

    const second = await launchSandbox({ dataFile });
    t.after(() => second.close());
    assert.deepEqual(await runs(second), [waiting, instant]);
    ok(await api(second).control('POST', 'clock/advance', { seconds: 600 }));
    const [done] = await runs(second);
    assert.deepEqual([done.status, statuses(done)], ['completed', ['completed', 'dispatched']]);
    assert.equal(done.id, waiting.id);
  });

  test('reset empties automations and runs', async (t) => {
    const sandbox = await sandboxFor(t);
    await createAutomation(
      sandbox,
      'deal',
      onCreate('later', [{ type: 'wait', delay_seconds: 600 }]),
    );
    await createRecord(sandbox, 'deal', { name: 'd' });
    assert.equal((await runs(sandbox)).length, 1);
    ok(await api(sandbox).control('POST', 'reset'), 204);
    assert.deepEqual(await runs(sandbox), []);
    assert.deepEqual(ok(await api(sandbox).get('deal/triggered_automations')).body.data, []);
    assert.equal(runsOf(sandbox.store).nextDue(), undefined);
  });

  test('deleting an automation cancels its waiting runs; replacing it leaves them as they began', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const kept = await createAutomation(
      sandbox,
      'deal',
      onCreate('kept', [{ type: 'wait', delay_seconds: 60 }, agent]),
    );
    const gone = await createAutomation(
      sandbox,
      'deal',
      onCreate('gone', [{ type: 'wait', delay_seconds: 60 }, agent]),
    );
    await createRecord(sandbox, 'deal', { name: 'd' });
    ok(
      await http.put(
        `deal/triggered_automations/${kept.id}`,
        onCreate('kept', [webhook, webhook, webhook]),
      ),
    );
    ok(await http.delete(`deal/triggered_automations/${gone.id}`), 204);
    let [first, second] = await runs(sandbox);
    assert.deepEqual([second.status, statuses(second)], ['cancelled', ['cancelled', 'skipped']]);
    ok(await http.control('POST', 'clock/advance', { seconds: 60 }));
    [first, second] = await runs(sandbox);
    assert.deepEqual([first.status, statuses(first)], ['completed', ['completed', 'recorded']]);
    assert.equal(second.status, 'cancelled');
  });
});
