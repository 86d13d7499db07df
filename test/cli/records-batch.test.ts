import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scriptedPrompter } from '../helpers/run.ts';
import { recordsSandbox, UNKNOWN_ID, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

const BATCH_DELETE = /^POST \/v2\/prism\/[^/]+\/contact\/batch\/delete /;
const BATCH_UPDATE = /^POST \/v2\/prism\/[^/]+\/contact\/batch\/update /;
const lines = (text: string) => text.trim().split('\n');
const contacts = (n: number) =>
  ctx.s.load(
    'contact',
    Array.from({ length: n }, (_, i) => ({ name: `Contact ${i}`, score: i })),
  );

/** A seeded PRNG, so a fault run is the same every time. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('ws records batch-delete', () => {
  it('deletes 1,000 ids (as `list --format tsv --fields id` prints them) in 10 requests', async () => {
    const ids = contacts(1000);
    const listed = await ctx.s.ws([
      'records',
      'list',
      'contacts',
      '--all',
      '--format',
      'tsv',
      '--fields',
      'id',
    ]);
    assert.equal(lines(listed.stdout).length, 1000);
    ctx.s.requests.length = 0;
    const report = join(ctx.dir, 'delete.ndjson');
    const r = await ctx.s.ws(
      ['records', 'batch-delete', 'contacts', '--file', '-', '--yes', '--report', report],
      { stdin: listed.stdout },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(ctx.s.count(BATCH_DELETE), 10);
    assert.equal(ctx.s.requests.length, 10);
    assert.ok(ids.every((id) => ctx.s.get('contact', id)!.deleted_at !== null));
    const results = lines(readFileSync(report, 'utf8')).map((l) => JSON.parse(l));
    assert.equal(results.length, 1000);
    assert.ok(results.every((x, i) => x.index === i && x.status === 'ok' && x.id === ids[i]));
    assert.match(r.stderr, /^Deleting 1,000 contacts…\n/);
    assert.match(r.stderr, /Deleted 1,000 of 1,000 contacts\.\n/);
    // Piped, the per-item results are rows on stdout.
    assert.equal(lines(r.stdout).length, 1000);
    assert.equal(lines(r.stdout)[0], `0\t${ids[0]}\tok\t\t`);
  });

  it('without --yes and without a terminal: exit 2, nothing sent', async () => {
    const ids = contacts(3);
    const r = await ctx.s.ws(['records', 'batch-delete', 'contacts', ...ids]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Not deleting 3 contacts without confirmation/);
    assert.deepEqual(ctx.s.requests, []);
    assert.ok(ids.every((id) => ctx.s.get('contact', id)!.deleted_at === null));
  });

  it('asks on a terminal; the summary and failures go to stderr, nothing to stdout', async () => {
    const ids = contacts(2);
    const prompter = scriptedPrompter({ 'Delete 3 contacts?': true });
    const r = await ctx.s.ws(['records', 'batch-delete', 'contact', ...ids, UNKNOWN_ID], {
      tty: true,
      prompter,
    });
    assert.equal(r.code, 5);
    assert.equal(prompter.asked.length, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Deleted 2 of 3 contacts; 1 failed\./);
    assert.match(r.stderr, /ID +CODE +MESSAGE\n/);
    assert.match(r.stderr, new RegExp(`${UNKNOWN_ID} +not_found +No contact record has the id`));
    assert.match(r.stderr, /1 of 3 contacts could not be deleted\./);
    const no = await ctx.s.ws(['records', 'batch-delete', 'contact', ids[0]!], {
      tty: true,
      prompter: scriptedPrompter({ Delete: false }),
    });
    assert.equal(no.code, 1);
  });

  it('exit 5 when an item failed; --json prints every result, the error as JSON on stderr', async () => {
    const [a] = contacts(1);
    const r = await ctx.s.ws([
      'records',
      'batch-delete',
      'contacts',
      a!,
      UNKNOWN_ID,
      '--yes',
      '--json',
    ]);
    assert.equal(r.code, 5);
    assert.deepEqual(JSON.parse(r.stdout), [
      { index: 0, id: a, status: 'ok' },
      {
        index: 1,
        id: UNKNOWN_ID,
        status: 'error',
        error: { code: 'not_found', message: `No contact record has the id ${UNKNOWN_ID}.` },
      },
    ]);
    const err = JSON.parse(lines(r.stderr).at(-1)!);
    assert.equal(err.error.code, 'partial_failure');
    assert.doesNotMatch(r.stderr, /ID +CODE/);
  });

  it('caps the failure table and points at --report for the rest', async () => {
    const missing = Array.from(
      { length: 25 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const r = await ctx.s.ws(['records', 'batch-delete', 'contacts', ...missing, '--yes']);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /… and 5 more, see --report FILE for every result/);
    assert.equal((r.stderr.match(/ not_found /g) ?? []).length, 20);
  });

  it('a line that is not an id is exit 2 before any request; blank lines, comments and an id header are skipped', async () => {
    const [a] = contacts(1);
    const bad = await ctx.s.ws(['records', 'batch-delete', 'contacts', '--file', '-', '--yes'], {
      stdin: `id\n${a}\n\nnot-an-id\n`,
    });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--file \(stdin\) has 1 line that is not a record id: line 4: "not-an-id"/,
    );
    assert.deepEqual(ctx.s.requests, []);
    // Ids given as arguments are not lines.
    const args = await ctx.s.ws(['records', 'batch-delete', 'contacts', a!, 'not-a-uuid', '--yes']);
    assert.equal(args.code, 2);
    assert.match(args.stderr, /^error: One of the ids given is not a record id: "not-a-uuid"\.\n/);
    assert.doesNotMatch(args.stderr, /line/);
    assert.deepEqual(ctx.s.requests, []);
    const file = join(ctx.dir, 'ids.txt');
    writeFileSync(file, `id\n# the one to go\n${a}\n${a}\n\n`);
    const ok = await ctx.s.ws(['records', 'batch-delete', 'contacts', '--file', file, '--yes']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /1 repeated id\(s\) ignored/);
    const none = await ctx.s.ws(['records', 'batch-delete', 'contacts', '--yes']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No record ids to delete/);
    // A filter that matched nothing, piped in: nothing to do.
    const empty = await ctx.s.ws(['records', 'batch-delete', 'contacts', '--file', '-'], {
      stdin: '',
    });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stderr, 'No record ids in stdin; nothing was deleted.\n');
    const noItems = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: 'id,name\n',
    });
    assert.equal(noItems.code, 0, noItems.stderr);
    assert.equal(noItems.stderr, 'No items in --file (stdin); nothing was updated.\n');
  });

  it('under --fail-rate 0.2 still deletes all 1,000, with a report of 1,000 successes', async () => {
    const faulty = await recordsSandbox({ failRate: 0.2, random: seeded(42) });
    try {
      const ids = faulty.load(
        'contact',
        Array.from({ length: 1000 }, (_, i) => ({ name: `C${i}` })),
      );
      const report = join(ctx.dir, 'faults.ndjson');
      const r = await faulty.ws(
        ['records', 'batch-delete', 'contacts', '--file', '-', '--yes', '--report', report],
        { stdin: ids.join('\n'), fastRetries: true },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.ok(ids.every((id) => faulty.get('contact', id)!.deleted_at !== null));
      const results = lines(readFileSync(report, 'utf8')).map((l) => JSON.parse(l));
      assert.equal(results.length, 1000);
      assert.ok(results.every((x, i) => x.status === 'ok' && x.id === ids[i]));
      // The faults cost retries: more than the 10 calls, every one of them a batch delete.
      assert.ok(faulty.requests.length > 10, `${faulty.requests.length} requests`);
      assert.equal(faulty.count(BATCH_DELETE), faulty.requests.length);
      assert.ok(faulty.requests.some((l) => / 50[023] /.test(l)));
    } finally {
      await faulty.stop();
    }
  });
});

describe('ws records batch-update', () => {
  it('reads CSV (id, then slugs): typed cells, empty leaves a value, null clears', async () => {
    const [a, b] = ctx.s.load('contact', [
      { name: 'Ada', score: 1, city: 'Paris' },
      { name: 'Bob', score: 2, city: 'Rome' },
    ]);
    const file = join(ctx.dir, 'changes.csv');
    writeFileSync(
      file,
      `id,score,status,tags,city\r\n${a},10,Customer,vip;Partner,\r\n${b},,lead,,null\r\n`,
    );
    const r = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ctx.s.get('contact', a!)!.default, {
      name: 'Ada',
      score: 10,
      city: 'Paris',
      status: 'customer',
      tags: ['vip', 'partner'],
    });
    const bob = ctx.s.get('contact', b!)!.default;
    assert.equal(bob['score'], 2);
    assert.equal(bob['status'], 'lead');
    assert.equal(bob['city'] ?? null, null);
    assert.equal(ctx.s.count(BATCH_UPDATE), 1);
    assert.match(r.stderr, /Updated 2 of 2 contacts\./);
  });

  it('reads what `list --format ndjson` prints, and a JSON array of flat objects', async () => {
    const ids = contacts(3);
    const listed = await ctx.s.ws(['records', 'list', 'contacts', '--format', 'ndjson']);
    const edited = lines(listed.stdout)
      .map((l) => {
        const row = JSON.parse(l);
        row.properties.score += 100;
        return JSON.stringify(row);
      })
      .join('\n');
    const r = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: edited,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      ids.map((id) => ctx.s.get('contact', id)!.default['score']),
      [100, 101, 102],
    );
    const json = join(ctx.dir, 'items.json');
    writeFileSync(json, JSON.stringify([{ id: ids[0], status: 'Churned' }]));
    const arr = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', json, '--json']);
    assert.equal(arr.code, 0, arr.stderr);
    assert.deepEqual(JSON.parse(arr.stdout), [{ index: 0, id: ids[0], status: 'ok' }]);
    assert.equal(ctx.s.get('contact', ids[0]!)!.default['status'], 'churned');
  });

  it('every problem of the file is listed with its place, exit 2, nothing sent', async () => {
    const [a] = contacts(1);
    const file = join(ctx.dir, 'bad.csv');
    writeFileSync(file, `id,score,stauts\n${a},lots,x\nnope,1,x\n`);
    const r = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', file]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`--file ${file} has 3 problems; nothing was sent:`));
    assert.match(
      r.stderr,
      /column 3 \("stauts"\): No contact property "stauts". Did you mean "status"\?/,
    );
    assert.match(r.stderr, /line 2, score: score takes a number, not "lots"\./);
    assert.match(r.stderr, /line 3: "nope" is not a record id/);
    assert.equal(ctx.s.count(BATCH_UPDATE), 0);

    const nd = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: `{"id":"${a}","score":"x"}\n{oops\n{"name":"no id"}\n`,
    });
    assert.equal(nd.code, 2);
    assert.match(nd.stderr, /line 1: score takes a number, not "x"/);
    assert.match(nd.stderr, /line 2: not valid JSON/);
    assert.match(nd.stderr, /line 3: has no "id"/);
    const quote = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: `id,name\n${a},"unclosed\n`,
    });
    assert.equal(quote.code, 2);
    assert.match(quote.stderr, /--file \(stdin\) is not valid CSV/);
    const count = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: `id,name\n${a},Ada,extra\n`,
    });
    assert.equal(count.code, 2);
    assert.match(count.stderr, /line 2: 3 fields where the header has 2/);
    const one = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: `id,name\n${a}\n`,
    });
    assert.match(one.stderr, /line 2: 1 field where the header has 2/);
    const noFile = await ctx.s.ws(['records', 'batch-update', 'contacts']);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /needs --file/);
    const noId = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      stdin: 'name,score\nAda,1\n',
    });
    assert.equal(noId.code, 2);
    assert.match(noId.stderr, /has no "id" column/);
  });

  it('keeps 16 requests in flight (--concurrency 16) without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const ids = contacts(1700);
      const items = ids.map((id) => JSON.stringify({ id, score: 3 })).join('\n');
      const r = await ctx.s.ws(
        ['records', 'batch-update', 'contacts', '--file', '-', '--concurrency', '16'],
        { stdin: items },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(ctx.s.count(BATCH_UPDATE), 17);
      assert.ok(ids.every((id) => ctx.s.get('contact', id)!.default['score'] === 3));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('sends 250 items as 3 chunks with --concurrency 2; a failed item is exit 5 with a report', async () => {
    const ids = contacts(250);
    const items = [...ids, UNKNOWN_ID].map((id) => JSON.stringify({ id, score: 7 })).join('\n');
    const report = join(ctx.dir, 'update.ndjson');
    const r = await ctx.s.ws(
      [
        'records',
        'batch-update',
        'contacts',
        '--file',
        '-',
        '--concurrency',
        '2',
        '--report',
        report,
      ],
      { stdin: items },
    );
    assert.equal(r.code, 5);
    assert.equal(ctx.s.count(BATCH_UPDATE), 3);
    assert.ok(ids.every((id) => ctx.s.get('contact', id)!.default['score'] === 7));
    const failed = lines(readFileSync(report, 'utf8'))
      .map((l) => JSON.parse(l))
      .filter((x) => x.status === 'error');
    assert.deepEqual(failed, [
      {
        index: 250,
        id: UNKNOWN_ID,
        status: 'error',
        error: { code: 'not_found', message: `No contact record has the id ${UNKNOWN_ID}.` },
      },
    ]);
    assert.match(r.stderr, new RegExp(`The failed items are the lines of ${report}`));
    const bad = await ctx.s.ws(
      ['records', 'batch-update', 'contacts', '--file', '-', '--concurrency', '0'],
      {
        stdin: items,
      },
    );
    assert.equal(bad.code, 2);
  });
});
