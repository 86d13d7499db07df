// --lookup at scale: 200,000 deals naming 5,000 organizations, in an order with no
// pattern, send at most ceil(5,000 / 50) = 100 look-up queries besides the import's own
// requests, and every deal gets the id of the organization it names.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

describe('ws import --lookup at scale', () => {
  it('200,000 rows naming 5,000 organizations: at most 100 look-up queries', async () => {
    const ROWS = 200_000;
    const NAMES = 5_000;
    const ids = ctx.s.load(
      'organization',
      Array.from({ length: NAMES }, (_, i) => ({ name: `Company ${i}` })),
    );
    // A linear congruential sequence: each row names a company at random (seeded).
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const named: number[] = [];
    let csv = 'Name,Company\n';
    for (let i = 0; i < ROWS; i++) {
      const n = next() % NAMES;
      named.push(n);
      csv += `Deal ${i},Company ${n}\n`;
    }
    const path = join(ctx.dir, 'deals.csv');
    writeFileSync(path, csv);
    const r = await ctx.s.ws([
      'import',
      'deals',
      path,
      '--lookup',
      'Company=organization.name',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.created, ROWS);
    const queries = ctx.s.count(/^POST \S+\/organization\/query /);
    assert.ok(queries <= Math.ceil(NAMES / 50), `${queries} look-up queries`);
    assert.equal(summary.lookup_queries, queries);
    // Besides them, only the import's own requests (definitions, import calls, polls).
    const others = ctx.s.requests.filter((l) => !/\/organization\/query /.test(l));
    assert.ok(
      others.every((l) => /\/deal\/import |\/imports\/|\/properties/.test(l)),
      others.join('\n'),
    );
    const byName = new Map<string, unknown>();
    for (const d of recordsOf(ctx.s.t.sandbox.store).records('deal'))
      byName.set(d.default['name'] as string, d.default['organization']);
    for (const i of [0, 1, 99_999, ROWS - 1])
      assert.equal(byName.get(`Deal ${i}`), ids[named[i]!], `Deal ${i}`);
  });
});
