import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

const HEADER =
  'id,birthday,city,company,email,name,notes,organization,phone,score,status,subscribed,tags,title';

describe('ws records export', () => {
  it('writes CSV that import reads back: slugs as header, option slugs, lists joined with ";", ids', async () => {
    const [org] = ctx.s.load('organization', [{ name: 'Acme' }]);
    const [a, b] = ctx.s.load('contact', [
      {
        name: 'Ada',
        status: 'customer',
        tags: ['vip', 'partner'],
        birthday: '1815-12-10',
        organization: org,
        score: -5,
        subscribed: true,
      },
      { name: 'Bob, "the builder"', notes: 'line one\nline two' },
    ]);
    const r = await ctx.s.ws(['records', 'export', 'contacts']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      `${HEADER}\r\n` +
        `${a},1815-12-10,,,,Ada,,${org},,-5,customer,true,vip;partner,\r\n` +
        `${b},,,,,"Bob, ""the builder""","line one\nline two",,,,,,,\r\n`,
    );
    assert.match(r.stderr, /Exported 2 contacts\.\n$/);
  });

  it('neutralises cells a spreadsheet would run as a formula, unless --raw', async () => {
    const [a] = ctx.s.load('contact', [
      {
        name: '=HYPERLINK("http://x")',
        phone: '+1 415 555 0110',
        city: '@home',
        title: '-x',
        score: -3,
      },
    ]);
    const r = await ctx.s.ws([
      'records',
      'export',
      'contacts',
      '--select',
      'name,phone,city,title,score',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      `id,name,phone,city,title,score\r\n${a},"'=HYPERLINK(""http://x"")",'+1 415 555 0110,'@home,'-x,-3\r\n`,
    );
    const raw = await ctx.s.ws([
      'records',
      'export',
      'contacts',
      '--select',
      'name,score',
      '--raw',
    ]);
    assert.equal(raw.stdout, `id,name,score\r\n${a},"=HYPERLINK(""http://x"")",-3\r\n`);
  });

  it('batch-update reads an export back unchanged (neutralised cells included)', async () => {
    const [org] = ctx.s.load('organization', [{ name: 'Acme' }]);
    const values = [
      {
        name: '=1+2',
        phone: '+1 415 555 0110',
        tags: ['vip', 'newsletter'],
        organization: org,
        birthday: '1990-01-31',
        subscribed: false,
        score: -2.5,
      },
      { name: 'Plain', status: 'lead' },
    ];
    const ids = ctx.s.load('contact', values);
    const file = join(ctx.dir, 'roundtrip.csv');
    const exported = await ctx.s.ws(['records', 'export', 'contacts', '--output', file]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(readFileSync(file, 'utf8'), /,'=1\+2,/);
    const back = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', file]);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(
      ids.map((id) => ctx.s.get('contact', id)!.default),
      values,
    );
  });

  it('import reads an export back: the id column left out, the formula guard undone', async () => {
    const values = [
      {
        name: '=1+2',
        email: 'ada@example.com',
        phone: '+1 415 555 0110',
        notes: '@home\r\n-- and "quoted"',
        tags: ['vip', 'newsletter'],
        birthday: '1990-01-31',
        subscribed: false,
        score: -2.5,
      },
      { name: 'Plain', email: 'plain@example.com', status: 'lead', title: "'quoted'" },
    ];
    const ids = ctx.s.load('contact', values);
    const file = join(ctx.dir, 'import-back.csv');
    const exported = await ctx.s.ws(['records', 'export', 'contacts', '--output', file]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(readFileSync(file, 'utf8'), /,'\+1 415 555 0110,/);
    // Onto the same records, matched by email: nothing changes.
    const same = await ctx.s.ws(['import', 'contacts', file, '--dedupe-by', 'email', '--json']);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(JSON.parse(same.stdout).unchanged, 2, same.stdout);
    assert.deepEqual(
      ids.map((id) => ctx.s.get('contact', id)!.default),
      values,
    );
    // Into an empty workspace: the same values, and an export of them is the same file but
    // for the ids.
    ctx.s.reset();
    const fresh = await ctx.s.ws(['import', 'contacts', file]);
    assert.equal(fresh.code, 0, fresh.stderr);
    const again = join(ctx.dir, 'import-back-2.csv');
    const second = await ctx.s.ws(['records', 'export', 'contacts', '--output', again]);
    assert.equal(second.code, 0, second.stderr);
    const withoutIds = (path: string) =>
      readFileSync(path, 'utf8').replace(/^[0-9a-f-]{36},/gm, 'ID,');
    assert.equal(withoutIds(again), withoutIds(file));
  });

  it('ndjson and json hold flat objects { id, slug: value } with every selected slug', async () => {
    const [org] = ctx.s.load('organization', [{ name: 'Acme' }]);
    const [a] = ctx.s.load('contact', [{ name: 'Ada', organization: org, tags: ['vip'] }]);
    const nd = await ctx.s.ws([
      'records',
      'export',
      'contacts',
      '--format',
      'ndjson',
      '--select',
      'name,organization,tags,score',
    ]);
    assert.equal(nd.code, 0, nd.stderr);
    assert.equal(
      nd.stdout,
      `${JSON.stringify({ id: a, name: 'Ada', organization: org, tags: ['vip'], score: null })}\n`,
    );
    const json = await ctx.s.ws(['records', 'export', 'contacts', '--json', '--select', 'name']);
    assert.deepEqual(JSON.parse(json.stdout), [{ id: a, name: 'Ada' }]);
  });

  it('reads every page, with a filter, into --output (format from its extension)', async () => {
    ctx.s.load(
      'deal',
      Array.from({ length: 120 }, (_, i) => ({ name: `D${i}`, amount: i })),
    );
    const file = join(ctx.dir, 'deals.ndjson');
    const r = await ctx.s.ws([
      'records',
      'export',
      'deals',
      '--where',
      'amount>=10',
      '--select',
      'name,amount',
      '--output',
      file,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.length, 110);
    assert.deepEqual(rows[0], { id: rows[0].id, name: 'D10', amount: 10 });
    assert.equal(ctx.s.count(/\/deal\/query 200/), 3);
    assert.match(r.stderr, /^Exporting deal records…\n/);
    assert.match(r.stderr, new RegExp(`Exported 110 deals to ${file}\\.\\n$`));
    assert.deepEqual(
      readdirSync(ctx.dir).filter((f) => f.includes('partial')),
      [],
    );
  });

  it('refuses table and tsv; a file it cannot write is exit 2 and leaves nothing behind', async () => {
    ctx.s.load('contact', [{ name: 'Ada' }]);
    const tsv = await ctx.s.ws(['records', 'export', 'contacts', '--format', 'tsv']);
    assert.equal(tsv.code, 2);
    assert.match(tsv.stderr, /export writes csv, ndjson or json, not tsv/);
    const missing = join(ctx.dir, 'no-such-dir', 'out.csv');
    const r = await ctx.s.ws(['records', 'export', 'contacts', '--output', missing]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Cannot write .*out\.csv/);
    assert.match(r.stderr, /was not written/);
    assert.equal(existsSync(missing), false);
  });

  it('an unknown slug in --select is exit 2 with "did you mean"', async () => {
    const r = await ctx.s.ws(['records', 'export', 'contacts', '--select', 'name,emial'], {
      tty: true,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Did you mean "email"/);
  });
});
