import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { DataFileWriter, readDataFile } from '../../src/sandbox/persist.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { call, prism, startFor, type TestHooks, tempDir, withTestRoutes } from './helpers.ts';

async function waitFor(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('data file', () => {
  test('is written at start with mode 0600, holding key and team', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    const info = await stat(file);
    assert.equal(info.mode & 0o777, 0o600);
    const data = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(data.format, 'ws-sandbox-data');
    assert.equal(data.version, 1);
    assert.equal(data.api_key, sandbox.apiKey);
    assert.equal(data.team_id, sandbox.teamId);
  });

  test('state, key, team and clock survive close and start', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file });
    const record = recordsOf(first.store).create('deal', { default: { name: 'Big one' } });
    recordsOf(first.store).create('deal');
    first.store.clock.advance(7200);
    await first.close();

    const second = await startFor(t, { dataFile: file });
    assert.equal(second.apiKey, first.apiKey);
    assert.equal(second.teamId, first.teamId);
    assert.deepEqual(recordsOf(second.store).get('deal', record.id), record);
    assert.equal(second.store.clock.offsetMs, 7_200_000);
    const count = await call(second, 'GET', prism(second, 'deal/count'));
    assert.deepEqual(count.body, { total: 2 });
  });

  test('the idempotency cache persists: a retry after a restart is replayed', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const hooks: TestHooks = { creates: 0 };
    const create = (sandbox: Parameters<typeof call>[0] & { teamId: string }) =>
      call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: 'Ada' } },
        headers: { 'idempotency-key': 'persisted-1' },
      });
    const first = await startFor(t, { dataFile: file }, withTestRoutes(hooks));
    const original = await create(first);
    assert.equal(original.status, 201);
    await first.close();
    const second = await startFor(t, { dataFile: file }, withTestRoutes(hooks));
    const replay = await create(second);
    assert.equal(replay.headers['idempotent-replay'], 'true');
    assert.deepEqual(replay.body, original.body);
    assert.equal(hooks.creates, 1);
  });

  test('a change is on disk within about a second, without close', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    const record = recordsOf(sandbox.store).create('organization', { default: { name: 'Acme' } });
    const started = Date.now();
    const written = await waitFor(async () => (await readFile(file, 'utf8')).includes(record.id));
    assert.ok(written, 'written within 3 s');
    assert.ok(Date.now() - started < 1500, `written after ${Date.now() - started} ms`);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  test('reset is persisted too, and flush writes at once', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file, seed: 'demo' });
    assert.equal(readDataFile(file)?.store && recordsOf(sandbox.store).count('contact'), 25);
    sandbox.reset();
    await sandbox.flush();
    const data = readDataFile(file)!;
    const records = (data.store as { slices: { records: Record<string, unknown[]> } }).slices
      .records;
    assert.ok(Object.values(records).every((rows) => rows.length === 0));
  });

  test('writes are atomic: no temp files are left behind', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    for (let i = 0; i < 20; i++) {
      recordsOf(sandbox.store).create('contact');
      if (i % 5 === 0) await sandbox.flush();
    }
    await sandbox.flush();
    assert.deepEqual(await readdir(dir), ['sandbox.json']);
    assert.equal(readDataFile(file)!.store !== undefined, true);
  });

  test('never more than one write in flight, and the last state wins', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'state.json');
    let state = 0;
    const writer = new DataFileWriter(
      file,
      () => ({
        format: 'ws-sandbox-data',
        version: 1,
        api_key: 'k',
        team_id: 't',
        saved_at: '',
        store: { state },
      }),
      { delayMs: 1 },
    );
    t.after(() => writer.close());
    for (let i = 0; i < 50; i++) {
      state = i;
      writer.schedule();
      if (i % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await writer.flush();
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')).store, { state: 49 });
    assert.deepEqual(await readdir(dir), ['state.json']);
  });

  test('a corrupt data file is an error naming the file, not a silent reset', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    await writeFile(file, '{"format": "ws-sandbox-data", ');
    await assert.rejects(startSandbox({ dataFile: file }), (err: Error) => {
      assert.ok(err.message.includes(file), err.message);
      assert.match(err.message, /is corrupt: not valid JSON/);
      return true;
    });
    assert.equal(await readFile(file, 'utf8'), '{"format": "ws-sandbox-data", ', 'left untouched');

    await writeFile(
      file,
      JSON.stringify({
        format: 'ws-sandbox-data',
        version: 1,
        api_key: 'k',
        team_id: crypto.randomUUID(),
        saved_at: '',
        store: { clock_offset_ms: 0, slices: { records: { contact: [{ id: 7 }] } } },
      }),
    );
    await assert.rejects(startSandbox({ dataFile: file }), (err: Error) => {
      assert.ok(err.message.includes(file), err.message);
      assert.match(
        err.message,
        /store\.slices\.records\.contact\[0\]\.id: must be a non-empty string/,
      );
      return true;
    });

    await writeFile(file, JSON.stringify({ hello: 'world' }));
    await assert.rejects(startSandbox({ dataFile: file }), /not a sandbox data file/);
  });

  test('its directory is created; an unwritable place is an error naming the file', async (t) => {
    const dir = await tempDir(t);
    const nested = join(dir, 'config', 'ws', 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: nested });
    assert.equal(readDataFile(nested)?.api_key, sandbox.apiKey);
    assert.equal((await stat(join(dir, 'config', 'ws'))).mode & 0o777, 0o700);

    await writeFile(join(dir, 'plain-file'), 'x');
    const impossible = join(dir, 'plain-file', 'sandbox.json');
    await assert.rejects(startSandbox({ dataFile: impossible }), (err: Error) => {
      assert.ok(err.message.startsWith(`Sandbox data file ${impossible} cannot be `), err.message);
      assert.match(err.message, /ENOTDIR/);
      assert.doesNotMatch(err.message, /remove the file/);
      return true;
    });
  });

  test('invalid options are refused before the data file is touched', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    await assert.rejects(startSandbox({ dataFile: file, latencyMs: -5 }), /latencyMs must be/);
    assert.deepEqual(await readdir(dir), []);
  });

  test('options win over the data file for key and team, and are saved', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const first = await startSandbox({ dataFile: file });
    await first.close();
    const teamId = crypto.randomUUID();
    const second = await startFor(t, { dataFile: file, apiKey: 'wsk_new', teamId });
    assert.equal(second.apiKey, 'wsk_new');
    const data = readDataFile(file)!;
    assert.equal(data.api_key, 'wsk_new');
    assert.equal(data.team_id, teamId);
  });
});
