// Dot-path columns (`--select name,organization.name`): the referenced record's value is
// printed by every verb that prints records (list, query, get, export, views show) in
// every format, the same value the JSON answer holds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

/** An organization "Acme" and a deal "Big" that references it. */
function dealWithOrganization(): { org: string; deal: string } {
  const [org] = ctx.s.load('organization', [{ name: 'Acme' }]);
  const [deal] = ctx.s.load('deal', [{ name: 'Big', organization: org }]);
  return { org: org!, deal: deal! };
}

const SELECT = ['--select', 'name,organization.name'];

describe('dot-path columns', () => {
  for (const verb of ['list', 'query'] as const) {
    it(`records ${verb}: csv, tsv, a table, json and ndjson print organization.name`, async () => {
      const { deal } = dealWithOrganization();
      const csv = await ctx.s.ws(['records', verb, 'deals', ...SELECT, '--format', 'csv']);
      assert.equal(csv.code, 0, csv.stderr);
      assert.equal(csv.stdout, `id,name,organization.name\r\n${deal},Big,Acme\r\n`);

      const tsv = await ctx.s.ws(['records', verb, 'deals', ...SELECT, '--format', 'tsv']);
      assert.equal(tsv.stdout, `${deal}\tBig\tAcme\n`);

      const table = await ctx.s.ws(['records', verb, 'deals', ...SELECT], { tty: true });
      assert.equal(table.code, 0, table.stderr);
      const [head, row] = table.stdout.split('\n');
      assert.match(head!, /^NAME +ORGANIZATION\.NAME +ID$/);
      assert.match(row!, new RegExp(`^Big +Acme +${deal}$`));

      const fields = await ctx.s.ws([
        'records',
        verb,
        'deals',
        ...SELECT,
        '--fields',
        'organization.name',
        '--format',
        'ndjson',
      ]);
      assert.equal(fields.stdout, '{"organization.name":"Acme"}\n');

      const json = await ctx.s.ws(['records', verb, 'deals', ...SELECT, '--json']);
      const [answer] = JSON.parse(json.stdout);
      assert.equal(answer.properties.organization.properties.name, 'Acme');
    });
  }

  it('records get: key/value lines, csv and tsv print organization.name', async () => {
    const { deal } = dealWithOrganization();
    const lines = await ctx.s.ws(['records', 'get', 'deal', deal, ...SELECT], { tty: true });
    assert.equal(lines.code, 0, lines.stderr);
    assert.match(lines.stdout, /^organization\.name +Acme$/m);
    const csv = await ctx.s.ws(['records', 'get', 'deal', deal, ...SELECT, '--format', 'csv']);
    assert.equal(csv.stdout, `id,name,organization.name\r\n${deal},Big,Acme\r\n`);
    const tsv = await ctx.s.ws(['records', 'get', 'deal', deal, ...SELECT, '--format', 'tsv']);
    assert.equal(tsv.stdout, `${deal}\tBig\tAcme\n`);
  });

  it('records export: csv, json and ndjson files hold organization.name', async () => {
    const { deal } = dealWithOrganization();
    const out = join(ctx.dir, 'deals.csv');
    const r = await ctx.s.ws(['records', 'export', 'deals', ...SELECT, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(out, 'utf8'), `id,name,organization.name\r\n${deal},Big,Acme\r\n`);
    const nd = await ctx.s.ws(['records', 'export', 'deals', ...SELECT, '--format', 'ndjson']);
    assert.equal(nd.stdout, `{"id":"${deal}","name":"Big","organization.name":"Acme"}\n`);
  });

  it('views show prints the same value in csv, tsv and a table', async () => {
    dealWithOrganization();
    const v = await ctx.s.ws([
      'views',
      'create',
      'deal',
      '--name',
      'Pipeline',
      ...SELECT,
      '--json',
    ]);
    assert.equal(v.code, 0, v.stderr);
    const id = JSON.parse(v.stdout).id as string;
    const csv = await ctx.s.ws(['views', 'show', 'deal', id, '--format', 'csv']);
    assert.equal(csv.stdout, 'name,organization.name\r\nBig,Acme\r\n');
    const tsv = await ctx.s.ws(['views', 'show', 'deal', id, '--format', 'tsv']);
    assert.equal(tsv.stdout, 'Big\tAcme\n');
    const table = await ctx.s.ws(['views', 'show', 'deal', id], { tty: true });
    assert.match(table.stdout, /^Big +Acme$/m);
  });

  it('a dot-path through a reference that is not set, or to a value not set, is empty', async () => {
    const [org] = ctx.s.load('organization', [{ name: 'Acme', domain: 'acme.io' }]);
    const [noOrg, withOrg] = ctx.s.load('contact', [
      { name: 'Nobody' },
      { name: 'Ada', organization: org },
    ]);
    const r = await ctx.s.ws([
      'records',
      'list',
      'contacts',
      '--select',
      'name,organization.name,organization.domain,organization.country',
      '--sort',
      'name',
      '--format',
      'csv',
    ]);
    assert.equal(
      r.stdout,
      `id,name,organization.name,organization.domain,organization.country\r\n${withOrg},Ada,Acme,acme.io,\r\n${noOrg},Nobody,,,\r\n`,
    );
  });
});
