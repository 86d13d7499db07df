// Several teams in one sandbox (each key acts for its own team alone), snapshots of the
// sandbox (the same state writes the same bytes; loaded, nothing fires) and records seeded
// through POST /__sandbox/seed (nothing fires either; writes through the API afterwards do).

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { resources } from '../../src/sandbox/resources/index.ts';
import type { RunningSandbox, SandboxTeam } from '../../src/sandbox/sandbox.ts';
import { snapshotText } from '../../src/sandbox/snapshot.ts';
import { runs } from './automations/helpers.ts';
import { call, startFor, tempDir } from './helpers.ts';
import { startReceiver, verifiedHook } from './webhook-helpers.ts';

/** A sandbox-shaped handle acting with one team's key. */
function as(sandbox: RunningSandbox, team: SandboxTeam) {
  return { ...sandbox, apiKey: team.key, teamId: team.id };
}

/** A value for each kind of path parameter, so the route is matched and only the team differs. */
function fill(path: string, teamId: string): string {
  return path
    .replace('{teamId}', teamId)
    .replace('{objectType}', 'contact')
    .replace('{...segments}', 'a/b')
    .replace(/\{[^}]+\}/g, () => randomUUID());
}

describe('teams', () => {
  test("every API route answers 403 to another team's key", async (t) => {
    const sandbox = await startFor(t, { teams: ['alpha', 'beta'] });
    const [alpha, beta] = sandbox.teams as [SandboxTeam, SandboxTeam];
    const routes = resources
      .flatMap((r) => r.routes)
      .filter((r) => r.kind === 'api' && r.path.includes('{teamId}'));
    assert.ok(routes.length > 50, `only ${routes.length} routes`);
    for (const route of routes) {
      const answer = await call(sandbox, route.method, fill(route.path, alpha.id), {
        key: beta.key,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
      });
      assert.equal(answer.status, 403, `${route.method} ${route.path}: ${answer.text}`);
      assert.equal(answer.body.error.code, 'forbidden', `${route.method} ${route.path}`);
    }
  });

  test("nothing of one team is in another's listings or counts", async (t) => {
    const sandbox = await startFor(t, { teams: ['alpha', 'beta'] });
    const [alpha, beta] = sandbox.teams as [SandboxTeam, SandboxTeam];
    for (let i = 0; i < 3; i++) {
      const made = await call(as(sandbox, alpha), 'POST', `/v2/prism/${alpha.id}/contact`, {
        key: alpha.key,
        body: { default: { name: `Alpha ${i}` } },
      });
      assert.equal(made.status, 201, made.text);
    }
    const count = async (team: SandboxTeam) =>
      (await call(sandbox, 'GET', `/v2/prism/${team.id}/contact/count`, { key: team.key })).body;
    assert.equal((await count(alpha)).total, 3);
    assert.equal((await count(beta)).total, 0);
    const listed = await call(sandbox, 'GET', `/v2/prism/${beta.id}/contact`, { key: beta.key });
    assert.deepEqual(listed.body.data, []);
    // A snapshot asked with beta's key holds beta alone; with the first team's, both.
    const ofBeta = await call(sandbox, 'GET', '/__sandbox/snapshot', { key: beta.key });
    assert.deepEqual(
      ofBeta.body.teams.map((team: { name: string }) => team.name),
      ['beta'],
    );
    const ofAll = await call(sandbox, 'GET', '/__sandbox/snapshot', { key: alpha.key });
    assert.deepEqual(
      ofAll.body.teams.map((team: { name: string }) => team.name),
      ['alpha', 'beta'],
    );
  });
});

/** An on-create automation on contacts with a webhook step, and its verified webhook. */
async function automated(t: Parameters<typeof startFor>[0], sandbox: RunningSandbox) {
  const receiver = await startReceiver(t);
  const received = {
    get length() {
      return receiver.posts().length;
    },
  };
  const hook = await verifiedHook(sandbox, `${receiver.origin}/in`);
  const made = await call(
    sandbox,
    'POST',
    `/v2/prism/${sandbox.teamId}/contact/triggered_automations`,
    {
      body: {
        kind: 'lifecycle',
        name: 'Greet',
        on_create: true,
        state: { filter: [] },
        actions: [{ type: 'webhook', webhook_id: hook.id }],
      },
    },
  );
  assert.equal(made.status, 201, made.text);
  return { hook, received };
}

async function deliveries(sandbox: RunningSandbox): Promise<unknown[]> {
  const answer = await call(sandbox, 'GET', `/v2/webhooks/${sandbox.teamId}/deliveries?limit=100`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.data;
}

function contacts(n: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    default: { name: `Person ${from + i}`, email: `p${from + i}@example.com` },
  }));
}

describe('seeding', () => {
  test('1,000 seeded records fire no run and no delivery; a write through the API then does', async (t) => {
    const sandbox = await startFor(t);
    await automated(t, sandbox);
    const seeded = await call(sandbox, 'POST', '/__sandbox/seed', {
      body: { records: { contact: contacts(1000) } },
    });
    assert.equal(seeded.status, 200, seeded.text);
    assert.deepEqual(seeded.body.created, { contact: 1000 });
    const counted = await call(sandbox, 'GET', `/v2/prism/${sandbox.teamId}/contact/count`);
    assert.equal(counted.body.total, 1000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await runs(sandbox)).length, 0);
    assert.equal((await deliveries(sandbox)).length, 0);
    const made = await call(sandbox, 'POST', `/v2/prism/${sandbox.teamId}/contact`, {
      body: { default: { name: 'Through the API' } },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal((await runs(sandbox)).length, 1);
  });

  test('keeps ids, resolves references among its own records in any order, and is all or nothing', async (t) => {
    const sandbox = await startFor(t);
    const org = randomUUID();
    const person = randomUUID();
    const seeded = await call(sandbox, 'POST', '/__sandbox/seed', {
      body: {
        records: {
          // The contact names the organization seeded after it.
          contact: [{ id: person, default: { name: 'Ada', organization: org } }],
          organization: [{ id: org, default: { name: 'Acme' } }],
        },
      },
    });
    assert.equal(seeded.status, 200, seeded.text);
    const got = await call(sandbox, 'GET', `/v2/prism/${sandbox.teamId}/contact/${person}`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.default.organization.id ?? got.body.default.organization, org);

    const bad = await call(sandbox, 'POST', '/__sandbox/seed', {
      body: {
        records: {
          contact: [
            { default: { name: 'Fine' } },
            { default: { name: 'Not fine', score: 'lots' } },
            { default: { name: 'Dangling', organization: randomUUID() } },
          ],
        },
      },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(
      bad.body.error.message,
      /^Nothing was seeded: records\.contact\[1\]\.default\.score/,
    );
    const fields = bad.body.error.errors.map((e: { field: string }) => e.field);
    assert.deepEqual(fields, [
      'records.contact[1].default.score',
      'records.contact[2].default.organization',
    ]);
    const counted = await call(sandbox, 'GET', `/v2/prism/${sandbox.teamId}/contact/count`);
    assert.equal(counted.body.total, 1, 'the good record of a refused seed is not kept');

    const taken = await call(sandbox, 'POST', '/__sandbox/seed', {
      body: { records: { contact: [{ id: person, default: { name: 'Again' } }] } },
    });
    assert.equal(taken.status, 409, taken.text);
    assert.match(taken.body.error.message, /exists already; nothing was seeded/);
    const unknown = await call(sandbox, 'POST', '/__sandbox/seed', {
      body: { records: { planet: [] } },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /records\.planet: is not an object type/);
  });
});

describe('snapshots', () => {
  test('export, start from it, export again: the same bytes; loaded, automations fire nothing', async (t) => {
    const dir = await tempDir(t);
    const first = await startFor(t, { teams: ['alpha', 'beta'] });
    const { received } = await automated(t, first);
    await call(first, 'POST', '/__sandbox/seed', {
      body: { records: { contact: contacts(1000) } },
    });
    await call(first, 'POST', '/__sandbox/clock/advance', { body: { seconds: 3600 } });
    const beta = first.teams[1]!;
    await call(first, 'POST', `/v2/prism/${beta.id}/deal`, {
      key: beta.key,
      body: { default: { name: 'Beta deal' } },
    });
    const text = snapshotText(first.snapshot());
    const over = await call(first, 'GET', '/__sandbox/snapshot');
    assert.equal(
      snapshotText(over.body),
      text,
      'GET /__sandbox/snapshot answers the same snapshot',
    );
    assert.doesNotMatch(text, new RegExp(first.apiKey), 'a snapshot holds no API key');
    const file = join(dir, 'snapshot.json');
    await writeFile(file, text);

    const second = await startFor(t, { snapshot: file });
    assert.deepEqual(
      second.teams.map((team) => [team.name, team.id]),
      first.teams.map((team) => [team.name, team.id]),
    );
    assert.equal(snapshotText(second.snapshot()), text);
    const clock = await call(second, 'GET', '/__sandbox/clock');
    const firstClock = await call(first, 'GET', '/__sandbox/clock');
    assert.ok(Math.abs(Date.parse(clock.body.now) - Date.parse(firstClock.body.now)) < 60_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await runs(second)).length, 0);
    assert.equal((await deliveries(second)).length, 0);
    const counted = await call(second, 'GET', `/v2/prism/${second.teamId}/contact/count`);
    assert.equal(counted.body.total, 1000);
    // Writes through the API fire as usual, to the webhook the snapshot kept.
    const before = received.length;
    const made = await call(second, 'POST', `/v2/prism/${second.teamId}/contact`, {
      body: { default: { name: 'After the load' } },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal((await runs(second)).length, 1);
    const end = Date.now() + 10_000;
    while (received.length === before && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(received.length, before + 1, 'the delivery reached the receiver');
  });

  test('a damaged snapshot is refused with the reason, and the file is left as it was', async (t) => {
    const dir = await tempDir(t);
    const first = await startFor(t);
    const good = JSON.parse(snapshotText(first.snapshot()));
    const cases: [string, unknown, RegExp][] = [
      ['not-json.json', '{"format": ', /is not JSON/],
      ['foreign.json', { hello: 1 }, /is not a sandbox snapshot/],
      ['newer.json', { ...good, version: 99 }, /has version 99, and this sandbox reads version 1/],
      [
        'bad-records.json',
        { ...good, teams: [{ ...good.teams[0], slices: { records: 'nope' } }] },
        /is damaged: team default: records/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      const text = typeof content === 'string' ? content : JSON.stringify(content);
      await writeFile(file, text);
      await assert.rejects(startFor(t, { snapshot: file }), (err: Error) => {
        assert.match(err.message, message);
        assert.ok(err.message.includes(file), err.message);
        return true;
      });
      const { readFile } = await import('node:fs/promises');
      assert.equal(await readFile(file, 'utf8'), text);
    }
  });
});
