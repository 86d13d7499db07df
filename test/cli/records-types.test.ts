// `ws records` on event and engagement records (beyond api.md's six): every verb takes them;
// `event` has no import and no batch operations (exit 2 before any request, saying what to
// do instead); an unfiltered count of engagements says it can be slow.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UNKNOWN_ID, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

describe('ws records on events and engagements', () => {
  it('create, get, update, list, query, count, find, upsert, duplicate, delete, restore', async () => {
    for (const [type, set] of [
      ['events', ['title=Kick-off', 'starts_at=2026-03-02T09:00:00Z']],
      ['engagements', ['title=Intro', 'kind=Call']],
    ] as const) {
      const created = await ctx.s.ws([
        'records',
        'create',
        type,
        ...set.flatMap((s) => ['--set', s]),
        '--fields',
        'id',
      ]);
      assert.equal(created.code, 0, created.stderr);
      const id = created.stdout.trim();
      const update = await ctx.s.ws(['records', 'update', type, id, '--set', 'title=Renamed']);
      assert.equal(update.code, 0, update.stderr);
      const listed = await ctx.s.ws(['records', 'list', type, '--fields', 'id,title']);
      assert.equal(listed.stdout, `${id}\tRenamed\n`);
      const queried = await ctx.s.ws([
        'records',
        'query',
        type,
        '--where',
        'title~ren',
        '--fields',
        'id',
      ]);
      assert.equal(queried.stdout, `${id}\n`);
      const found = await ctx.s.ws(['records', 'find', type, 'title', 'Renamed', '--fields', 'id']);
      assert.equal(found.stdout, `${id}\n`);
      const upsert = await ctx.s.ws(['records', 'upsert', type, 'title', 'Other', '--data', '{}']);
      assert.equal(upsert.code, 0, upsert.stderr);
      const copy = await ctx.s.ws(['records', 'duplicate', type, id, '--fields', 'id']);
      assert.equal(copy.code, 0, copy.stderr);
      assert.equal((await ctx.s.ws(['records', 'count', type])).stdout, '3\n');
      assert.equal((await ctx.s.ws(['records', 'delete', type, id, '--yes'])).code, 0);
      assert.equal((await ctx.s.ws(['records', 'get', type, id])).code, 4);
      assert.equal((await ctx.s.ws(['records', 'restore', type, id])).code, 0);
      assert.equal(
        (await ctx.s.ws(['records', 'get', type, id, '--fields', 'title'])).stdout,
        'Renamed\n',
      );
    }
  });

  it('event records: import, batch-update and batch-delete are exit 2 before any request', async () => {
    const csv = join(ctx.dir, 'events.csv');
    writeFileSync(csv, 'title\nA\n');
    const changes = join(ctx.dir, 'changes.ndjson');
    writeFileSync(changes, `{"id":"${UNKNOWN_ID}","title":"B"}\n`);
    for (const [argv, what] of [
      [['import', 'events', csv], 'import'],
      [['records', 'batch-update', 'event', '-f', changes], 'batch update'],
      [['records', 'batch-delete', 'event', UNKNOWN_ID, '--yes'], 'batch delete'],
    ] as const) {
      const before = ctx.s.requests.length;
      const r = await ctx.s.ws([...argv]);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^error: event records have no ${what}`));
      assert.match(r.stderr, /ws records create event/);
      assert.equal(ctx.s.requests.length, before, 'nothing sent');
    }
  });

  it('engagement records: import and batch-delete work', async () => {
    const csv = join(ctx.dir, 'engagements.csv');
    writeFileSync(csv, 'title,kind\nA,email\nB,call\n');
    const imported = await ctx.s.ws(['import', 'engagements', csv, '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    const ids = (await ctx.s.ws(['records', 'list', 'engagement', '--fields', 'id'])).stdout;
    const gone = await ctx.s.ws(['records', 'batch-delete', 'engagement', '-f', '-', '--yes'], {
      stdin: ids,
    });
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal((await ctx.s.ws(['records', 'count', 'engagement', '--quiet'])).stdout, '0\n');
  });

  it('an unfiltered count of engagements says it can take long; a filtered one does not', async () => {
    ctx.s.load('engagement', [{ title: 'A' }]);
    const all = await ctx.s.ws(['records', 'count', 'engagements']);
    assert.equal(all.stdout, '1\n');
    assert.match(all.stderr, /Counting every engagement record can take tens of seconds/);
    const quiet = await ctx.s.ws(['records', 'count', 'engagements', '--quiet']);
    assert.equal(quiet.stderr, '');
    const filtered = await ctx.s.ws(['records', 'count', 'engagements', '--where', 'title=A']);
    assert.equal(filtered.stdout, '1\n');
    assert.equal(filtered.stderr, '');
    assert.equal((await ctx.s.ws(['records', 'count', 'events'])).stderr, '');
  });
});
