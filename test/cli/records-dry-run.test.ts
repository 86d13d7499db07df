// Safer bulk verbs: --dry-run of batch-update and batch-delete (what would change, counted,
// nothing sent beyond reads), and `ws records delete TYPE --where …`, which shows the count
// and a few of the records before it deletes them, and asks (or needs --yes).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scriptedPrompter } from '../helpers/run.ts';
import { UNKNOWN_ID, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

const QUERY = /^POST \/v2\/prism\/[^/]+\/contact\/query /;
const lines = (text: string) => text.trim().split('\n');
const deletedAt = (id: string) => ctx.s.get('contact', id)!.deleted_at;

/** Only reads were sent: every request is a GET or a query. */
function onlyReads(): void {
  assert.ok(ctx.s.requests.length > 0);
  assert.deepEqual(
    ctx.s.requests.filter((l) => !QUERY.test(l) && !l.startsWith('GET ')),
    [],
    'a dry run sends only reads',
  );
}

describe('ws records batch-update --dry-run', () => {
  it('says what would change item by item, counted, and sends only reads', async () => {
    const [a, b, c] = ctx.s.load('contact', [
      { name: 'Ada', score: 1 },
      { name: 'Bea', score: 2 },
      { name: 'Cy', score: 3 },
    ]);
    const gone = ctx.s.load('contact', [{ name: 'Dee' }])[0]!;
    await ctx.s.ws(['records', 'delete', 'contacts', gone, '--yes']);
    const file = join(ctx.dir, 'changes.csv');
    writeFileSync(
      file,
      `id,score,name\n${a},10,Ada\n${b},2,Bea\n${c},3,Cyrus\n${gone},4,\n${UNKNOWN_ID},5,\n`,
    );
    ctx.s.requests.length = 0;
    const r = await ctx.s.ws(['records', 'batch-update', 'contacts', '-f', file, '--dry-run']);
    assert.equal(r.code, 5, r.stderr);
    onlyReads();
    // 5 ids: one query for them, one more for the 2 not found (is either deleted?).
    assert.equal(ctx.s.count(QUERY), 2);
    assert.deepEqual(r.stdout.split('\n').slice(0, -1), [
      `0\t${a}\tupdate\t{"score":{"from":1,"to":10}}`,
      `1\t${b}\tunchanged\t{}`,
      `2\t${c}\tupdate\t{"name":{"from":"Cy","to":"Cyrus"}}`,
      `3\t${gone}\tdeleted\t`,
      `4\t${UNKNOWN_ID}\tnot_found\t`,
    ]);
    assert.match(
      r.stderr,
      /Would update 2 of 5 contacts \(1 unchanged, 1 not found, 1 deleted\); nothing was sent \(--dry-run\)\./,
    );
    assert.match(
      r.stderr,
      /2 of 5 contacts would fail: no record has the id, or the record is deleted\./,
    );
    assert.equal(ctx.s.get('contact', a!)!.default['score'], 1);
    assert.equal(ctx.s.get('contact', c!)!.default['name'], 'Cy');
  });

  it('at a terminal, a table of the changes; --json the items as objects; all fine is exit 0', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', score: 1 }]);
    const file = join(ctx.dir, 'one.ndjson');
    writeFileSync(file, `${JSON.stringify({ id: a, score: 7 })}\n`);
    const table = await ctx.s.ws(['records', 'batch-update', 'contacts', '-f', file, '--dry-run'], {
      tty: true,
    });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^INDEX +ID +STATUS +CHANGES\n/);
    assert.match(table.stdout, new RegExp(`0 +${a} +update +score: 1 → 7\\n`));
    assert.match(table.stderr, /Would update 1 of 1 contact; nothing was sent/);
    const json = await ctx.s.ws([
      'records',
      'batch-update',
      'contacts',
      '-f',
      file,
      '--dry-run',
      '--json',
    ]);
    assert.deepEqual(JSON.parse(json.stdout), [
      { index: 0, id: a, status: 'update', changes: { score: { from: 1, to: 7 } } },
    ]);
    assert.equal(ctx.s.get('contact', a!)!.default['score'], 1);
  });

  it('--report with --dry-run is a usage error: nothing would be written to it', async () => {
    const file = join(ctx.dir, 'x.csv');
    writeFileSync(file, `id,score\n${UNKNOWN_ID},1\n`);
    const r = await ctx.s.ws([
      'records',
      'batch-update',
      'contacts',
      '-f',
      file,
      '--dry-run',
      '--report',
      join(ctx.dir, 'r.ndjson'),
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--report writes the results of what was sent; --dry-run sends nothing/);
    assert.deepEqual(ctx.s.requests, []);
  });
});

describe('ws records batch-delete --dry-run', () => {
  it('needs no --yes, says which would be deleted with their names, and sends only reads', async () => {
    const [a, b] = ctx.s.load('contact', [{ name: 'Ada' }, { name: 'Bea' }]);
    await ctx.s.ws(['records', 'delete', 'contacts', b!, '--yes']);
    ctx.s.requests.length = 0;
    const r = await ctx.s.ws([
      'records',
      'batch-delete',
      'contacts',
      a!,
      b!,
      UNKNOWN_ID,
      '--dry-run',
      '--json',
    ]);
    assert.equal(r.code, 5, r.stderr);
    onlyReads();
    assert.deepEqual(JSON.parse(r.stdout), [
      { index: 0, id: a, status: 'delete', properties: { name: 'Ada' } },
      { index: 1, id: b, status: 'already_deleted' },
      { index: 2, id: UNKNOWN_ID, status: 'not_found' },
    ]);
    assert.match(
      r.stderr,
      /Would delete 1 of 3 contacts \(1 already deleted, 1 not found\); nothing was sent/,
    );
    assert.equal(deletedAt(a!), null);
  });
});

describe('ws records delete TYPE --where', () => {
  const load = () =>
    ctx.s.load(
      'contact',
      Array.from({ length: 120 }, (_, i) => ({ name: `Old ${i}`, score: i % 2 === 0 ? 1 : 50 })),
    );

  it('without a terminal and without --yes: the count and a sample, exit 2, nothing deleted', async () => {
    const ids = load();
    const r = await ctx.s.ws(['records', 'delete', 'contacts', '--where', 'score<10']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^60 contacts match score<10:\n/);
    assert.equal((r.stderr.match(/^ {2}[0-9a-f-]{36} {2}Old \d+/gm) ?? []).length, 5);
    assert.match(r.stderr, /… and 55 more\n/);
    assert.match(r.stderr, /Not deleting 60 contacts without confirmation\./);
    assert.match(r.stderr, /Pass --yes/);
    // One query: the count and the sample.
    assert.equal(ctx.s.count(QUERY), 1);
    assert.ok(ids.every((id) => deletedAt(id) === null));
  });

  it('with --yes deletes every record that matches, 100 per request, and no other', async () => {
    const ids = load();
    const r = await ctx.s.ws(['records', 'delete', 'contacts', '--where', 'score<10', '--yes']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Deleted 60 of 60 contacts\./);
    ids.forEach((id, i) => {
      assert.equal(deletedAt(id) !== null, i % 2 === 0, `contact ${i}`);
    });
    assert.equal(ctx.s.count(/batch\/delete/), 1);
    assert.equal(lines(r.stdout).length, 60);
  });

  it('asks at a terminal with the count; no is nothing deleted', async () => {
    const ids = load();
    const no = scriptedPrompter({ 'Delete 60 contacts?': false });
    const r = await ctx.s.ws(['records', 'delete', 'contacts', '--where', 'score<10'], {
      tty: true,
      prompter: no,
    });
    assert.equal(r.code, 1);
    assert.equal(no.asked.length, 1);
    assert.match(r.stderr, /Cancelled: nothing was changed\./);
    assert.ok(ids.every((id) => deletedAt(id) === null));
    const yes = scriptedPrompter({ 'Delete 60 contacts?': true });
    const ok = await ctx.s.ws(['records', 'delete', 'contacts', '--where', 'score<10'], {
      tty: true,
      prompter: yes,
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ids.filter((id) => deletedAt(id) !== null).length, 60);
  });

  it('--dry-run shows the count and the sample and deletes nothing; no match is exit 0', async () => {
    const ids = load();
    const r = await ctx.s.ws([
      'records',
      'delete',
      'contacts',
      '--where',
      'score<10',
      '--dry-run',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.matched, 60);
    assert.equal(out.sample.length, 5);
    assert.match(r.stderr, /Would delete 60 contacts; nothing was sent \(--dry-run\)\./);
    onlyReads();
    assert.ok(ids.every((id) => deletedAt(id) === null));
    const none = await ctx.s.ws(['records', 'delete', 'contacts', '--where', 'score>1000']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /No contact records match score>1000; nothing was deleted\./);
  });

  it('an id and a filter, or neither, is a usage error before any request', async () => {
    const both = await ctx.s.ws(['records', 'delete', 'contacts', UNKNOWN_ID, '--where', 'a=b']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /Give a record id or a filter \(--where, --filter-json\), not both/);
    const neither = await ctx.s.ws(['records', 'delete', 'contacts', '--yes']);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /Which contact records\?/);
    assert.deepEqual(ctx.s.requests, []);
  });
});
