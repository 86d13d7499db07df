import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.ts';
import { readDataFile } from '../../src/sandbox/persist.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { call, prism, startFor, type TestHooks, tempDir, withTestRoutes } from './helpers.ts';

/** Records the data file holds (replayed), of every type. */
function journaledRecords(file: string): number {
  const data = readDataFile(file);
  assert.equal(data?.version, 2);
  const entries = data.slices.get('records')?.entries ?? new Map();
  return [...entries.values()].filter((value) => value !== undefined).length;
}

describe('data file', () => {
  test('is written at start with mode 0600, holding key and team', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    const info = await stat(file);
    assert.equal(info.mode & 0o777, 0o600);
    const data = JSON.parse((await readFile(file, 'utf8')).split('\n')[0]!);
    assert.equal(data.format, 'ws-sandbox-data');
    assert.equal(data.version, 2);
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

  test('a change outside a request is in the file by the next turn of the event loop', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    const record = recordsOf(sandbox.store).create('organization', { default: { name: 'Acme' } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok((await readFile(file, 'utf8')).includes(record.id));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  test('an answered write is in the file when its answer arrives', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file });
    const created = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
      body: { default: { name: 'Ada' } },
    });
    assert.equal(created.status, 201);
    const id = (created.body as { id: string }).id;
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes(id), 'the create is in the file');
  });

  test('reset is persisted too, and flush writes at once', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const sandbox = await startFor(t, { dataFile: file, seed: 'demo' });
    assert.equal(recordsOf(sandbox.store).count('contact'), 25);
    assert.equal(journaledRecords(file), [...recordsOf(sandbox.store).entries()].length);
    sandbox.reset();
    await sandbox.flush();
    assert.equal(journaledRecords(file), 0);
    const again = await startFor(t, { dataFile: file });
    assert.equal(recordsOf(again.store).count('contact'), 0);
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
    assert.equal(journaledRecords(file), 20);
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

describe('data file journal', () => {
  test('a version 1 file (one JSON snapshot) still loads, and is rewritten as a journal', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.json');
    const teamId = crypto.randomUUID();
    const id = crypto.randomUUID();
    const record = {
      id,
      default: { name: 'Old' },
      lists: {},
      created_at: '2025-01-06T00:00:00.000Z',
      updated_at: '2025-01-06T00:00:00.000Z',
      deleted_at: null,
      version: 3,
    };
    const v1 = {
      format: 'ws-sandbox-data',
      version: 1,
      api_key: 'wsk_old',
      team_id: teamId,
      saved_at: '',
      store: { clock_offset_ms: 5000, slices: { records: { deal: [record] } } },
    };
    await writeFile(file, `${JSON.stringify(v1, null, 2)}\n`);
    const sandbox = await startFor(t, { dataFile: file });
    assert.equal(sandbox.apiKey, 'wsk_old');
    assert.equal(sandbox.teamId, teamId);
    assert.deepEqual(recordsOf(sandbox.store).get('deal', id), record);
    assert.equal(sandbox.store.clock.offsetMs, 5000);
    assert.equal(readDataFile(file)?.version, 2);
    assert.equal(journaledRecords(file), 1);
  });

  test('a torn last line (a kill during an append) is cut off; a bad line before it is an error', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.data');
    const first = await startSandbox({ dataFile: file });
    const kept = recordsOf(first.store).create('contact', { default: { name: 'Kept' } });
    await first.close();
    await writeFile(file, `${readFileSync(file, 'utf8')}{"s":"records","k":"contact/x","v":{"id`);
    const second = await startFor(t, { dataFile: file });
    assert.equal(recordsOf(second.store).get('contact', kept.id)?.default['name'], 'Kept');
    recordsOf(second.store).create('contact', { default: { name: 'After' } });
    await second.close();
    assert.equal(journaledRecords(file), 2, 'the torn line is gone, the next append whole');

    await writeFile(file, `${readFileSync(file, 'utf8')}not json\n{"c":0}\n`);
    await assert.rejects(
      startSandbox({ dataFile: file }),
      /is corrupt: line \d+ is not valid JSON/,
    );
  });

  test('the journal is rewritten when it has doubled, in the background, losing nothing', async (t) => {
    const dir = await tempDir(t);
    const file = join(dir, 'sandbox.data');
    // The change feed keeps its last changes (a small window here), so the store stays small.
    const sandbox = await startFor(t, {
      dataFile: file,
      compactMinBytes: 20_000,
      realtime: { windowSize: 16 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const created = await call(sandbox, 'POST', prism(sandbox, 'contact'), {
        body: { default: { name: `C${i}` } },
      });
      ids.push((created.body as { id: string }).id);
    }
    // Patch the same records again and again: the journal grows, the store does not.
    for (let round = 0; round < 10; round++) {
      const rewriting = sandbox.journal!.compact(); // writes go on meanwhile
      for (const id of ids.slice(0, 20)) {
        await call(sandbox, 'PATCH', prism(sandbox, `contact/${id}`), {
          body: { default: { name: `C round ${round}` } },
        });
      }
      await rewriting;
    }
    const size = (await stat(file)).size;
    assert.ok(size < 20_000 * 2, `the file stays small (${size} bytes)`);
    assert.deepEqual(await readdir(dir), ['sandbox.data']);
    assert.equal(journaledRecords(file), 40);
    const loaded = await startFor(t, { dataFile: join(dir, 'sandbox.data') });
    for (const slice of ['records', 'changes']) {
      assert.deepEqual(loaded.store.toJSON().slices[slice], sandbox.store.toJSON().slices[slice]);
    }
  });

  test('--fsync policies are checked', async () => {
    await assert.rejects(
      startSandbox({ dataFile: 'x', fsync: 'sometimes' as never }),
      /fsync must be one of always, everysec, no/,
    );
  });
});
