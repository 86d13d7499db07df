import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scriptedPrompter } from '../helpers/run.ts';
import { UNKNOWN_ID, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

const HEADER =
  'id,birthday,city,company,email,name,notes,organization,phone,score,status,subscribed,tags,title';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The record API calls (not the definitions) among the logged requests. */
const recordCalls = () => ctx.s.requests.filter((l) => !/\/properties/.test(l));

describe('ws records list', () => {
  it('prints tab-separated rows when piped: id, then the selected properties', async () => {
    const [a, b] = ctx.s.load('contact', [
      { name: 'Ada Lovelace', score: 42 },
      { name: 'Bruno Tanaka', tags: ['vip', 'partner'] },
    ]);
    const r = await ctx.s.ws(['records', 'list', 'contacts', '--select', 'name,score,tags']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${a}\tAda Lovelace\t42\t\n${b}\tBruno Tanaka\t\tvip;partner\n`);
    assert.equal(r.stderr, '');
    assert.equal(ctx.s.count(/^GET \/v2\/prism\/[^/]+\/contact 200/), 1);
  });

  it('shows a table on a terminal, with a hint when more records exist', async () => {
    const ids = ctx.s.load(
      'deal',
      Array.from({ length: 3 }, (_, i) => ({ name: `Deal ${i}`, amount: 100 * i, stage: 'won' })),
    );
    const r = await ctx.s.ws(['records', 'list', 'deals', '--limit', '2'], { tty: true });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    // close_date, empty on every row, is left out.
    assert.match(lines[0]!, /^NAME\s+STAGE\s+AMOUNT\s+ID$/);
    assert.match(lines[1]!, new RegExp(`^Deal 0\\s+won\\s+0\\s+${ids[0]}$`));
    assert.equal(lines.length, 3);
    assert.equal(r.stderr, 'Showing 2 deal records; more exist: use --limit N or --all.\n');
  });

  it('heads every table column with its words in capitals; --fields shows a column even when empty', async () => {
    const [a] = ctx.s.load('deal', [{ name: 'Deal', stage: 'won' }]);
    const r = await ctx.s.ws(['records', 'list', 'deals', '--fields', 'id,name,close_date'], {
      tty: true,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `ID                                    NAME  CLOSE DATE\n${a}  Deal\n`);
  });

  it('says "record" and "matches" of one, "records" and "match" of several', async () => {
    ctx.s.load('deal', [{ name: 'One' }]);
    const one = await ctx.s.ws(['records', 'list', 'deals', '--limit', '1'], { tty: true });
    assert.equal(one.stderr, '');
    ctx.s.load('deal', [{ name: 'Other' }]);
    const more = await ctx.s.ws(['records', 'list', 'deals', '--limit', '1'], { tty: true });
    assert.equal(more.stderr, 'Showing 1 deal record; more exist: use --limit N or --all.\n');
    const total = await ctx.s.ws(['records', 'list', 'deals', '--limit', '1', '--total'], {
      tty: true,
    });
    assert.equal(
      total.stderr,
      '2 deals in all.\nShowing 1 of 2 deal records; more exist: use --limit N or --all.\n',
    );
    const matches = await ctx.s.ws(['records', 'list', 'deals', '--where', 'name=One', '--total']);
    assert.equal(matches.stderr, '1 deal matches.\n');
    const none = await ctx.s.ws(['records', 'list', 'deals', '--where', 'name=Z', '--total']);
    assert.equal(none.stderr, '0 deals match.\n');
  });

  it('--json prints one array of the rows as the API answers them', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', status: 'customer' }]);
    const r = await ctx.s.ws(['records', 'list', 'contact', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [
      { id: a, properties: { name: 'Ada', status: 'customer' } },
    ]);
  });

  it('--fields picks columns, and their JSON keys', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', email: 'ada@example.com' }]);
    const r = await ctx.s.ws(['records', 'list', 'contacts', '--fields', 'email,id', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ email: 'ada@example.com', id: a }]);
    const bad = await ctx.s.ws(['records', 'list', 'contacts', '--fields', 'emial']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown field "emial"/);
  });

  it('--limit N reads N records across pages, asking only for what is left', async () => {
    ctx.s.load(
      'contact',
      Array.from({ length: 130 }, (_, i) => ({ name: `C${i}` })),
    );
    const r = await ctx.s.ws([
      'records',
      'list',
      'contacts',
      '--limit',
      '120',
      '--format',
      'ndjson',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    assert.equal(new Set(ids).size, 120);
    assert.deepEqual(
      recordCalls().map((l) => l.split(' ')[0]),
      ['GET', 'GET', 'GET'],
    );
  });

  it('--where reads the query endpoint with typed comparisons, AND by default, OR with --or', async () => {
    const [small, big, huge] = ctx.s.load('deal', [
      { name: 'Small', amount: 500, stage: 'lead' },
      { name: 'Big', amount: 5000, stage: 'won' },
      { name: 'Huge', amount: 90000, stage: 'lost' },
    ]);
    const and = await ctx.s.ws([
      'records',
      'list',
      'deals',
      '--where',
      'amount>=1000',
      '--where',
      'stage:in=Won,proposal',
      '--fields',
      'id',
    ]);
    assert.equal(and.code, 0, and.stderr);
    assert.equal(and.stdout, `${big}\n`);
    assert.equal(ctx.s.count(/^POST \/v2\/prism\/[^/]+\/deal\/query 200/), 1);

    const or = await ctx.s.ws([
      'records',
      'list',
      'deals',
      '--where',
      'amount<1000',
      '--where',
      'name~hug',
      '--or',
      '--sort',
      '-amount',
      '--fields',
      'id',
    ]);
    assert.equal(or.code, 0, or.stderr);
    assert.equal(or.stdout, `${huge}\n${small}\n`);
  });

  it('--filter-json takes the raw array', async () => {
    const [, b] = ctx.s.load('deal', [
      { name: 'A', amount: 1 },
      { name: 'B', amount: 2000 },
    ]);
    const r = await ctx.s.ws([
      'records',
      'list',
      'deals',
      '--filter-json',
      '[{"amount":{">":"1000"}}]',
      '--fields',
      'id',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${b}\n`);
  });

  it('an unknown slug in --where is a usage error with "did you mean", before any record request', async () => {
    const r = await ctx.s.ws(['records', 'list', 'deals', '--where', 'ammount>=1000']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown property "ammount" in --where "ammount>=1000"/);
    assert.match(r.stderr, /Did you mean "amount"\?/);
    assert.deepEqual(recordCalls(), []);
  });

  it('a value the property cannot hold, or id, in --where: a usage error quoting it, before any record request', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['list', 'contacts', '--where', 'score>abc'],
        /^error: Bad --where "score>abc": "score" is a number property, and "abc" is not a number\.\ne\.g\. score>10\.\n$/,
      ],
      [
        ['count', 'deals', '--where', 'close_date>=soon'],
        /^error: Bad --where "close_date>=soon": "close_date" is a date property/,
      ],
      [['export', 'deals', '--where', 'amount:between=1,lots'], /"lots" is not a number/],
      [
        ['list', 'contacts', '--where', `id=${UNKNOWN_ID}`],
        new RegExp(
          `^error: Bad --where "id=${UNKNOWN_ID}": the API does not filter records by id\\.\\nTo read a record by id: ws records get contact ID; several: ws records query contact --body`,
        ),
      ],
      [
        ['query', 'contacts', '--filter-json', '[{"id":{"in":["a"]}}]'],
        /--filter-json \(item 1\): the API does not filter records by id/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await ctx.s.ws(['records', ...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
    assert.deepEqual(recordCalls(), []);
  });

  it('refuses --limit with --all, a bad --limit, and --or without a filter (exit 2)', async () => {
    for (const argv of [
      ['--limit', '5', '--all'],
      ['--limit', '0'],
      ['--or'],
      ['--where', 'amount'],
    ]) {
      const r = await ctx.s.ws(['records', 'list', 'deals', ...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '');
    }
    assert.deepEqual(recordCalls(), []);
  });

  it('an unknown object type is a usage error listing the known ones', async () => {
    const r = await ctx.s.ws(['records', 'list', 'widgets']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown object type "widgets" for records/);
    assert.match(r.stderr, /contact, organization, identity, deal, action, document/);
  });

  it('says so on a terminal when nothing matches; prints nothing when piped', async () => {
    const tty = await ctx.s.ws(['records', 'list', 'contacts'], { tty: true });
    assert.equal(tty.code, 0);
    assert.equal(tty.stdout, '');
    assert.match(tty.stderr, /No contact records yet/);
    const piped = await ctx.s.ws(['records', 'list', 'contacts', '--where', 'name=x']);
    assert.equal(piped.code, 0);
    assert.equal(piped.stdout, '');
    const json = await ctx.s.ws(['records', 'list', 'contacts', '--json']);
    assert.equal(json.stdout, '[]\n');
  });

  it('--deleted includes soft-deleted records; --total prints the total on stderr', async () => {
    const [a, b] = ctx.s.load('contact', [{ name: 'A' }, { name: 'B' }]);
    await ctx.s.ws(['records', 'delete', 'contact', b!, '--yes']);
    const live = await ctx.s.ws(['records', 'list', 'contacts', '--fields', 'id', '--total']);
    assert.equal(live.stdout, `${a}\n`);
    assert.equal(live.stderr, '1 contact in all.\n');
    const all = await ctx.s.ws(['records', 'list', 'contacts', '--fields', 'id', '--deleted']);
    assert.equal(all.stdout, `${a}\n${b}\n`);
  });
});

describe('ws records query', () => {
  it('always uses the query endpoint and takes a raw body the flags add to', async () => {
    const [a, b] = ctx.s.load('contact', [
      { name: 'Ada', score: 5 },
      { name: 'Bob', score: 50 },
    ]);
    const r = await ctx.s.ws([
      'records',
      'query',
      'contacts',
      '--body',
      '{"query":{"select":["name"],"sort":[{"score":"desc"}]}}',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [
      { id: b, properties: { name: 'Bob' } },
      { id: a, properties: { name: 'Ada' } },
    ]);
    assert.equal(ctx.s.count(/^POST .*\/contact\/query 200/), 1);
    const bad = await ctx.s.ws(['records', 'query', 'contacts', '--body', '[1]']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--body must be a JSON object/);
  });
});

describe('ws records count', () => {
  it('counts with the count endpoint, or a one-record query with a filter', async () => {
    ctx.s.load('deal', [{ amount: 1 }, { amount: 5000 }, { amount: 7000 }]);
    const plain = await ctx.s.ws(['records', 'count', 'deals']);
    assert.deepEqual([plain.code, plain.stdout], [0, '3\n']);
    const filtered = await ctx.s.ws([
      'records',
      'count',
      'deals',
      '--where',
      'amount>1000',
      '--json',
    ]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.deepEqual(JSON.parse(filtered.stdout), { total: 2 });
    const tty = await ctx.s.ws(['records', 'count', 'deals'], { tty: true });
    assert.equal(tty.stdout, '3\n');
    assert.equal(ctx.s.count(/\/deal\/count 200/), 2);
    assert.equal(ctx.s.count(/\/deal\/query 200/), 1);
    const bad = await ctx.s.ws(['records', 'count', 'deals', '--where', 'amout>1', '--json']);
    assert.equal(bad.code, 2);
    assert.equal(JSON.parse(bad.stderr).error.code, 'usage');
  });
});

describe('ws records get', () => {
  it('prints the record and its etag: key/value lines on a terminal, piped the row list prints', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', tags: ['vip'] }]);
    const tty = await ctx.s.ws(['records', 'get', 'contact', a!], { tty: true });
    assert.equal(tty.code, 0, tty.stderr);
    assert.equal(tty.stdout, `id    ${a}\netag  "v1"\nname  Ada\ntags  vip\n`);
    // Piped, the row `list` prints: id and every defined property, set or not.
    const piped = await ctx.s.ws(['records', 'get', 'contact', a!]);
    const list = await ctx.s.ws(['records', 'list', 'contact']);
    assert.equal(piped.stdout, `${a}\t\t\t\t\tAda\t\t\t\t\t\t\tvip\t\n`);
    assert.equal(piped.stdout, list.stdout);
    const csv = await ctx.s.ws(['records', 'get', 'contact', a!, '--format', 'csv']);
    assert.equal(csv.stdout.split('\r\n')[0], HEADER);
    const some = await ctx.s.ws(['records', 'get', 'contact', a!, '--select', 'name,email']);
    assert.equal(some.stdout, `${a}\tAda\t\n`);
  });

  it('--json is the record as the API answers it plus "etag"', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const r = await ctx.s.ws(['records', 'get', 'contacts', a!, '--json']);
    assert.deepEqual(JSON.parse(r.stdout), { id: a, default: { name: 'Ada' }, etag: '"v1"' });
    const etag = await ctx.s.ws(['records', 'get', 'contacts', a!, '--fields', 'etag']);
    assert.equal(etag.stdout, '"v1"\n');
  });

  it('a malformed id is exit 2 before any request; an unknown one exit 4', async () => {
    const bad = await ctx.s.ws(['records', 'get', 'contact', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"nope" is not a record id/);
    assert.deepEqual(recordCalls(), []);
    const missing = await ctx.s.ws(['records', 'get', 'contact', UNKNOWN_ID, '--json']);
    assert.equal(missing.code, 4);
    assert.equal(JSON.parse(missing.stderr).error.code, 'not_found');
  });
});

describe('ws records create', () => {
  it('types --set values by their definitions (options by display value too)', async () => {
    const r = await ctx.s.ws([
      'records',
      'create',
      'contact',
      '--set',
      'name=Ada Lovelace',
      '--set',
      'score=42',
      '--set',
      'subscribed=yes',
      '--set',
      'status=Customer',
      '--set',
      'tags=vip,Partner',
      '--set',
      'birthday=1815-12-10',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.match(out.id, UUID);
    assert.equal(out.etag, '"v1"');
    assert.deepEqual(ctx.s.get('contact', out.id)!.default, {
      name: 'Ada Lovelace',
      score: 42,
      subscribed: true,
      status: 'customer',
      tags: ['vip', 'partner'],
      birthday: '1815-12-10',
    });
    assert.match(r.stderr, /Created contact/);
  });

  it('a value that does not fit its type is exit 2 before any record request', async () => {
    for (const [set, message] of [
      ['score=lots', /--set "score=lots": score takes a number, not "lots"/],
      ['status=vip', /"vip" is not an option of status; it takes one of lead/],
      ['birthday=2026-02-30', /not a date of the calendar/],
      ['subscribed=maybe', /subscribed takes true or false/],
      ['nmae=Ada', /No contact property "nmae". Did you mean "name"\?/],
      ['name', /--set "name" must be slug=value/],
    ] as const) {
      const r = await ctx.s.ws(['records', 'create', 'contact', '--set', set]);
      assert.equal(r.code, 2, set);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(recordCalls(), []);
  });

  it('--data takes the raw values map inline, from a file or stdin; --set goes on top', async () => {
    const file = join(ctx.dir, 'data.json');
    writeFileSync(file, '{"name":"From file","score":1}');
    const r = await ctx.s.ws([
      'records',
      'create',
      'contact',
      '--data',
      `@${file}`,
      '--set',
      'score=2',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).default, { name: 'From file', score: 2 });
    const stdin = await ctx.s.ws(['records', 'create', 'contact', '--data', '-', '--json'], {
      stdin: '{"name":"From stdin"}',
    });
    assert.deepEqual(JSON.parse(stdin.stdout).default, { name: 'From stdin' });
    const bad = await ctx.s.ws(['records', 'create', 'contact', '--data', '{oops']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--data is not valid JSON/);
  });

  it('creates a record with no values only when asked with --data {}', async () => {
    const before = await ctx.s.ws(['records', 'count', 'contact']);
    const none = await ctx.s.ws(['records', 'create', 'contact']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^error: Nothing to create/);
    assert.equal((await ctx.s.ws(['records', 'count', 'contact'])).stdout, before.stdout);
    const empty = await ctx.s.ws(['records', 'create', 'contact', '--data', '{}', '--json']);
    assert.equal(empty.code, 0, empty.stderr);
    assert.deepEqual(JSON.parse(empty.stdout).default, {});
  });

  it('raw JSON with slug:=JSON, null to clear', async () => {
    const r = await ctx.s.ws([
      'records',
      'create',
      'contact',
      '--set',
      'name:="null"',
      '--set',
      'score=null',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    // A create leaves a null value out.
    assert.deepEqual(JSON.parse(r.stdout).default, { name: 'null' });
  });

  it('prints the record as key/value lines on a terminal', async () => {
    const r = await ctx.s.ws(
      ['records', 'create', 'deal', '--set', 'name=Big', '--set', 'amount=10'],
      {
        tty: true,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^id {6}[0-9a-f-]{36}\netag {4}"v1"\nname {4}Big\namount {2}10\n$/);
    assert.match(r.stderr, /✓ Created deal/);
  });
});

describe('ws records update', () => {
  it('changes only the given values, with --if-match when the etag is current', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', score: 1 }]);
    const r = await ctx.s.ws([
      'records',
      'update',
      'contact',
      a!,
      '--set',
      'score=2',
      '--if-match',
      '"v1"',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      id: a,
      default: { name: 'Ada', score: 2 },
      etag: '"v2"',
    });
  });

  it('a stale --if-match is exit 6 and changes nothing', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const r = await ctx.s.ws([
      'records',
      'update',
      'contact',
      a!,
      '--set',
      'name=Eve',
      '--if-match',
      '"v0"',
    ]);
    assert.equal(r.code, 6);
    assert.match(r.stderr, /changed since that etag was read, so it was not updated \(412\)/);
    assert.match(r.stderr, /ws records get contact .* --json` shows the current etag/);
    assert.equal(ctx.s.get('contact', a!)!.default['name'], 'Ada');
  });

  it('nothing to change is exit 2; an unknown record exit 4', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const none = await ctx.s.ws(['records', 'update', 'contact', a!]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Nothing to update/);
    const missing = await ctx.s.ws(['records', 'update', 'contact', UNKNOWN_ID, '--set', 'name=x']);
    assert.equal(missing.code, 4);
  });
});

describe('ws records delete and restore', () => {
  it('without --yes and without a terminal: exit 2, nothing deleted', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const r = await ctx.s.ws(['records', 'delete', 'contact', a!]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Not deleting contact .* without confirmation/);
    assert.match(r.stderr, /Pass --yes/);
    assert.equal(ctx.s.get('contact', a!)!.deleted_at, null);
    assert.deepEqual(recordCalls(), []);
  });

  it('asks on a terminal: yes deletes, no cancels', async () => {
    const [a, b] = ctx.s.load('contact', [{ name: 'Ada' }, { name: 'Bob' }]);
    const yes = scriptedPrompter({ Delete: true });
    const r = await ctx.s.ws(['records', 'delete', 'contact', a!], { tty: true, prompter: yes });
    assert.equal(r.code, 0, r.stderr);
    assert.match(yes.asked[0]!, /^Delete contact [0-9a-f-]+\?/);
    assert.notEqual(ctx.s.get('contact', a!)!.deleted_at, null);
    const no = await ctx.s.ws(['records', 'delete', 'contact', b!], {
      tty: true,
      prompter: scriptedPrompter({ Delete: false }),
    });
    assert.equal(no.code, 1);
    assert.match(no.stderr, /Cancelled: nothing was changed/);
    assert.equal(ctx.s.get('contact', b!)!.deleted_at, null);
  });

  it('--yes deletes; --json says so; restore brings it back', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const del = await ctx.s.ws(['records', 'delete', 'contact', a!, '--yes', '--json']);
    assert.equal(del.code, 0, del.stderr);
    assert.deepEqual(JSON.parse(del.stdout), { id: a, deleted: true });
    assert.notEqual(ctx.s.get('contact', a!)!.deleted_at, null);
    const res = await ctx.s.ws(['records', 'restore', 'contact', a!, '--json']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout).id, a);
    assert.equal(ctx.s.get('contact', a!)!.deleted_at, null);
    const tty = await ctx.s.ws(['records', 'restore', 'contact', a!], { tty: true });
    assert.match(tty.stdout, /^id +[0-9a-f-]{36}\n/);
  });

  it('a stale --if-match is exit 6; an unknown record exit 4', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const stale = await ctx.s.ws([
      'records',
      'delete',
      'contact',
      a!,
      '--yes',
      '--if-match',
      '"v9"',
    ]);
    assert.equal(stale.code, 6);
    assert.match(stale.stderr, /so it was not deleted \(412\)/);
    assert.equal(ctx.s.get('contact', a!)!.deleted_at, null);
    const missing = await ctx.s.ws(['records', 'delete', 'contact', UNKNOWN_ID, '--yes']);
    assert.equal(missing.code, 4);
    const restore = await ctx.s.ws(['records', 'restore', 'contact', UNKNOWN_ID]);
    assert.equal(restore.code, 4);
  });
});

describe('ws records duplicate', () => {
  it('makes a new record with the same values', async () => {
    const [a] = ctx.s.load('deal', [{ name: 'Big', amount: 10 }]);
    const r = await ctx.s.ws(['records', 'duplicate', 'deal', a!, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const copy = JSON.parse(r.stdout);
    assert.notEqual(copy.id, a);
    assert.deepEqual(copy.default, { name: 'Big', amount: 10 });
    assert.match(r.stderr, new RegExp(`Duplicated deal ${a} as ${copy.id}`));
    const tty = await ctx.s.ws(['records', 'duplicate', 'deal', a!], { tty: true });
    assert.match(tty.stdout, /^id +[0-9a-f-]{36}\netag +"v1"\nname +Big\namount +10\n$/);
    assert.equal((await ctx.s.ws(['records', 'duplicate', 'deal', UNKNOWN_ID])).code, 4);
  });
});

describe('ws records find', () => {
  it('prints the one match; no match is exit 4 and several exit 6, each saying which', async () => {
    const [a] = ctx.s.load('contact', [
      { name: 'Ada', email: 'ada@example.com', status: 'customer' },
      { name: 'Twin', email: 'twin@example.com' },
      { name: 'Twin', email: 'twin2@example.com' },
    ]);
    const one = await ctx.s.ws([
      'records',
      'find',
      'contacts',
      'email',
      'ada@example.com',
      '--json',
    ]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).id, a);
    const byLabel = await ctx.s.ws([
      'records',
      'find',
      'contacts',
      'status',
      'Customer',
      '--fields',
      'id',
    ]);
    assert.equal(byLabel.stdout, `${a}\n`);

    const none = await ctx.s.ws(['records', 'find', 'contacts', 'email', 'nobody@example.com']);
    assert.equal(none.code, 4);
    assert.match(none.stderr, /No contact record has email = "nobody@example.com"\./);
    const many = await ctx.s.ws(['records', 'find', 'contacts', 'name', 'Twin'], { tty: true });
    assert.equal(many.code, 6);
    assert.match(
      many.stderr,
      /Several contact records have name = "Twin"; find needs exactly one\./,
    );
    const typo = await ctx.s.ws(['records', 'find', 'contacts', 'emial', 'x']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /Did you mean "email"/);
  });
});

describe('ws records upsert', () => {
  it('creates when nothing matches, updates the one match, exit 6 on several', async () => {
    const created = await ctx.s.ws([
      'records',
      'upsert',
      'contacts',
      'email',
      'ada@example.com',
      '--set',
      'name=Ada',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const id = JSON.parse(created.stdout).id;
    assert.match(created.stderr, /Created contact .* \(email = "ada@example.com"\)/);
    assert.deepEqual(ctx.s.get('contact', id)!.default, { name: 'Ada', email: 'ada@example.com' });

    const updated = await ctx.s.ws(
      ['records', 'upsert', 'contacts', 'email', 'ada@example.com', '--set', 'score=3'],
      {
        tty: true,
      },
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stderr, /Updated contact/);
    assert.equal(ctx.s.get('contact', id)!.default['score'], 3);

    ctx.s.load('contact', [{ email: 'ada@example.com' }]);
    const several = await ctx.s.ws([
      'records',
      'upsert',
      'contacts',
      'email',
      'ada@example.com',
      '--set',
      'score=4',
    ]);
    assert.equal(several.code, 6);
    assert.match(
      several.stderr,
      /Several contact records have email = "ada@example.com"; upsert needs at most one/,
    );
    const bad = await ctx.s.ws([
      'records',
      'upsert',
      'contacts',
      'email',
      'x@example.com',
      '--set',
      'score=x',
    ]);
    assert.equal(bad.code, 2);
  });
});

describe('ws records grant', () => {
  it('sets and reads the grant of a deal; other types are exit 2', async () => {
    const [deal] = ctx.s.load('deal', [{ name: 'Big' }]);
    const USER = '0c1d2e3f-0000-4000-8000-000000000001';
    const set = await ctx.s.ws([
      'records',
      'grant',
      'set',
      'deal',
      deal!,
      '--user',
      `${USER}=w`,
      '--share-level',
      'full',
      '--json',
    ]);
    assert.equal(set.code, 0, set.stderr);
    const grant = JSON.parse(set.stdout);
    assert.deepEqual(grant.user_id, { [USER]: 'w' });
    assert.equal(grant.share_level, 'full');
    const get = await ctx.s.ws(['records', 'grant', 'get', 'deals', deal!], { tty: true });
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, new RegExp(`user_id +${USER}=w\\n`));
    assert.match(get.stdout, /share_level +full\n/);

    const contact = await ctx.s.ws(['records', 'grant', 'get', 'contact', deal!]);
    assert.equal(contact.code, 2);
    assert.match(contact.stderr, /Unknown object type "contact" for grants\./);
    assert.match(contact.stderr, /deal, action, document, event, engagement, identity, message/);
    const letter = await ctx.s.ws([
      'records',
      'grant',
      'set',
      'deal',
      deal!,
      '--user',
      `${USER}=x`,
    ]);
    assert.equal(letter.code, 2);
    const piped = await ctx.s.ws([
      'records',
      'grant',
      'get',
      'deal',
      deal!,
      '--fields',
      'share_level',
    ]);
    assert.equal(piped.stdout, 'full\n');
    const missing = await ctx.s.ws(['records', 'grant', 'get', 'deal', UNKNOWN_ID]);
    assert.equal(missing.code, 4);
    const nothing = await ctx.s.ws(['records', 'grant', 'set', 'deal', deal!]);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /Nothing to set/);
  });
});

describe('ws records grant of events, engagements and messages', () => {
  it('--group and --share-level on an event; a message by its id', async () => {
    const [event] = ctx.s.load('event', [{ title: 'Launch' }]);
    const GROUP = '9e2f0000-0000-4000-8000-000000000002';
    const set = await ctx.s.ws([
      'records',
      'grant',
      'set',
      'events',
      event!,
      '--group',
      `${GROUP}=r`,
      '--share-level',
      'metadata',
      '--json',
    ]);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout).group_id, { [GROUP]: 'r' });
    const message = '7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a';
    const put = await ctx.s.ws([
      'records',
      'grant',
      'set',
      'message',
      message,
      '--share-level',
      'full',
    ]);
    assert.equal(put.code, 0, put.stderr);
    const got = await ctx.s.ws(['records', 'grant', 'get', 'messages', message, '--json']);
    assert.equal(JSON.parse(got.stdout).share_level, 'full');
    assert.equal(JSON.parse(got.stdout).contact_ids, null);
  });
});

describe('ws records on a terminal', () => {
  it('update, query, find, batch-update, export and edit show people what happened', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', email: 'ada@example.com' }]);
    const tty = { tty: true } as const;

    const update = await ctx.s.ws(['records', 'update', 'contact', a!, '--set', 'score=3'], tty);
    assert.equal(update.code, 0, update.stderr);
    assert.equal(
      update.stdout,
      `id     ${a}\netag   "v2"\nname   Ada\nemail  ada@example.com\nscore  3\n`,
    );
    assert.match(update.stderr, /✓ Updated contact/);

    const query = await ctx.s.ws(['records', 'query', 'contacts', '--select', 'name,score'], tty);
    assert.equal(query.code, 0, query.stderr);
    assert.match(query.stdout, /^NAME +SCORE +ID\nAda +3 +[0-9a-f-]{36}\n$/);

    const find = await ctx.s.ws(['records', 'find', 'contacts', 'email', 'ada@example.com'], tty);
    assert.equal(find.code, 0, find.stderr);
    assert.match(find.stdout, /^id +[0-9a-f-]{36}\netag +"v2"\n/);

    const batch = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', '-'], {
      ...tty,
      stdinTTY: false,
      stdin: `id,score\n${a},4\n`,
    });
    assert.equal(batch.code, 0, batch.stderr);
    assert.equal(batch.stdout, '');
    assert.match(batch.stderr, /Updated 1 of 1 contact\./);

    const exported = await ctx.s.ws(['records', 'export', 'contacts', '--select', 'score'], tty);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, `id,score\r\n${a},4\r\n`);
    assert.match(exported.stderr, /Exported 1 contact\./);

    const script = join(ctx.dir, 'tty-editor.mjs');
    writeFileSync(
      script,
      "import { readFileSync, writeFileSync } from 'node:fs';\n" +
        'const f = process.argv[2];\n' +
        "writeFileSync(f, readFileSync(f, 'utf8').replace(/^city: .*$/m, 'city: Paris'));\n",
    );
    const edit = await ctx.s.ws(['records', 'edit', 'contact', a!], {
      ...tty,
      env: { EDITOR: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}` },
    });
    assert.equal(edit.code, 0, edit.stderr);
    assert.match(edit.stderr, /Updated contact .*: city\./);
    assert.match(edit.stdout, /\ncity +Paris\n/);
  });
});
