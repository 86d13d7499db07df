// The sandbox in a test suite, as a user of ws writes it (the README's recipe, whole): two
// sandboxes in one process, an import through the API, the clock moved, a snapshot taken,
// and nothing left behind. Copy it beside your own tests and replace `api` with your code.
//
// It imports the package's library entry exactly as a user does ('wsadmin/sandbox', built
// by `npm run build`), so it tests what is shipped.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Sandbox, startSandbox } from 'wsadmin/sandbox';

/** The code under test: here, a small client of the workspace API. */
function api(sb: Sandbox, team = sb.teams[0]!) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sb.url}/v2/prism/${team.id}/${path}`, {
      method,
      headers: { 'x-api-key': team.key, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the example reads answers freely
    return { status: res.status, body: (await res.json()) as any };
  };
}

/** Whether anything listens on the port of `url` (a stopped sandbox leaves nothing). */
function listening(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the sandbox in a node:test suite', () => {
  let crm: Sandbox;
  let other: Sandbox;
  const dir = mkdtempSync(join(tmpdir(), 'ws-sandbox-example-'));

  before(async () => {
    // Two independent sandboxes: one with two teams, one with the demo workspace.
    crm = await startSandbox({ teams: ['acme', 'globex'], clock: '2030-01-01T09:00:00Z' });
    other = await startSandbox({ seed: 'demo' });
  });

  after(async () => {
    await crm.stop();
    await other.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('imports contacts into one team, and the other team sees none of them', async () => {
    const acme = api(crm, crm.team('acme'));
    const objects = [
      { default: { name: 'Ada Lovelace', email: 'ada@example.com' } },
      { default: { name: 'Alan Turing', email: 'alan@example.com' } },
    ];
    const imported = await acme('POST', 'contact/import', { objects });
    assert.equal(imported.status, 200);
    assert.equal(imported.body.status, 'complete');
    assert.equal((await acme('GET', 'contact/count')).body.total, 2);
    const globex = api(crm, crm.team('globex'));
    assert.equal((await globex('GET', 'contact/count')).body.total, 0);
    // A key acts for its own team only.
    const across = await fetch(`${crm.url}/v2/prism/${crm.team('acme').id}/contact`, {
      headers: { 'x-api-key': crm.team('globex').key },
    });
    assert.equal(across.status, 403);
    // The other sandbox is apart: its demo data, none of these.
    const demo = await api(other)('GET', 'contact/count');
    assert.ok(demo.body.total > 0);
  });

  test('moves the clock instead of waiting', async () => {
    assert.equal(crm.clock.now().toISOString().slice(0, 13), '2030-01-01T09');
    const later = crm.clock.advance(7 * 24 * 3600);
    assert.equal(later.toISOString().slice(0, 10), '2030-01-08');
    // The service's answers carry the sandbox's time (here, its clock endpoint's).
    const clock = await fetch(`${crm.url}/__sandbox/clock`, { headers: { 'x-api-key': crm.key } });
    const { now } = (await clock.json()) as { now: string };
    assert.equal(now.slice(0, 10), '2030-01-08');
  });

  test('snapshots the state, and a sandbox started from it has it, firing nothing', async () => {
    const file = join(dir, 'fixture.json');
    writeFileSync(file, crm.snapshotText());
    const copy = await startSandbox({ snapshot: file });
    try {
      assert.deepEqual(
        copy.teams.map((t) => [t.name, t.id]),
        crm.teams.map((t) => [t.name, t.id]),
      );
      assert.equal((await api(copy, copy.team('acme'))('GET', 'contact/count')).body.total, 2);
      assert.equal(copy.snapshotText(), crm.snapshotText());
    } finally {
      await copy.stop();
    }
    assert.equal(await listening(copy.url), false, 'a stopped sandbox leaves no port open');
  });

  test('seeds records without firing, and injects faults', async () => {
    const { created } = await crm.seed(
      { records: { organization: [{ default: { name: 'Initech' } }] } },
      { team: 'globex' },
    );
    assert.deepEqual(created, { organization: 1 });
    crm.faults.set({ failRate: 1 });
    const failed = await fetch(`${crm.url}/v2/prism/${crm.teamId}/deal`, {
      headers: { 'x-api-key': crm.key },
    }).catch(() => undefined);
    assert.ok(failed === undefined || failed.status >= 500);
    crm.faults.set({ failRate: 0 });
    assert.equal((await api(crm)('GET', 'deal')).status, 200);
  });

  test('leaves no file behind', () => {
    // Without dataFile, a sandbox writes nothing; the snapshot above is the test's own.
    assert.deepEqual(readdirSync(dir), ['fixture.json']);
    assert.ok(existsSync(dir));
  });
});
