// ws views: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, parse } from '../helpers/parse.ts';

/** The flags create and update share, none given. */
const NO_SPEC = {
  viewType: undefined,
  select: undefined,
  where: [],
  filterJson: undefined,
  or: false,
  sort: undefined,
  groupBy: undefined,
  groupHideEmpty: undefined,
  listId: undefined,
  icon: undefined,
};

describe('ws views: parsing', () => {
  it('create: every flag', async () => {
    const r = await parse([
      'views',
      'create',
      'deals',
      '--name',
      'Big',
      '--type',
      'kanban',
      '--select',
      'name,amount',
      '--where',
      'amount>=1',
      '--where',
      'stage=won',
      '--filter-json',
      '[]',
      '--or',
      '--sort',
      '-amount',
      '--group-by',
      'stage',
      '--group-hide-empty',
      '--list-id',
      '00000000-0000-4000-8000-000000000001',
      '--icon',
      'star',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.opts, {
      type: 'deals',
      name: 'Big',
      viewType: 'kanban',
      select: 'name,amount',
      where: ['amount>=1', 'stage=won'],
      filterJson: '[]',
      or: true,
      sort: '-amount',
      groupBy: 'stage',
      groupHideEmpty: true,
      listId: '00000000-0000-4000-8000-000000000001',
      icon: 'star',
    });
  });

  it('create: nothing but the type', async () => {
    const r = await parse(['views', 'create', 'deal']);
    assert.deepEqual(r.opts, { type: 'deal', name: undefined, ...NO_SPEC });
  });

  it('update: the clearing flags, --and and --no-group-hide-empty', async () => {
    const r = await parse([
      'views',
      'update',
      'deal',
      'Big',
      '--and',
      '--clear-filter',
      '--clear-sort',
      '--clear-group-by',
      '--no-group-hide-empty',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.opts, {
      type: 'deal',
      view: 'Big',
      name: undefined,
      ...NO_SPEC,
      groupHideEmpty: false,
      and: true,
      clearFilter: true,
      clearSort: true,
      clearGroupBy: true,
    });
  });

  it('list, get, show, delete and their aliases', async () => {
    assert.deepEqual((await parse(['views', 'ls', 'deal', '--list-id', 'L'])).opts, {
      type: 'deal',
      listId: 'L',
    });
    assert.deepEqual((await parse(['view', 'get', 'deal', 'X'])).opts, { type: 'deal', view: 'X' });
    assert.deepEqual((await parse(['views', 'show', 'deal', 'X', '--limit', '120'])).opts, {
      type: 'deal',
      view: 'X',
      limit: 120,
      all: false,
    });
    assert.deepEqual((await parse(['views', 'show', 'deal', 'X', '--all'])).opts, {
      type: 'deal',
      view: 'X',
      limit: undefined,
      all: true,
    });
    assert.deepEqual((await parse(['views', 'rm', 'deal', 'X'])).opts, { type: 'deal', view: 'X' });
  });

  it('usage errors: a missing argument, a bad --type, a bad --limit, --all with --limit', async () => {
    const cases: [string[], RegExp][] = [
      [['views', 'get', 'deal'], /Missing VIEW: `ws views get` needs a view, by id or by name/],
      [['views', 'create', 'deal', '--type', 'table'], /Allowed choices are grid, list, kanban/],
      [
        ['views', 'show', 'deal', 'X', '--limit', 'ten'],
        /--limit takes a whole number at least 1, not "ten"/,
      ],
      [
        ['views', 'show', 'deal', 'X', '--all', '--limit', '3'],
        /--all and --limit cannot be used together/,
      ],
    ];
    await assertUsageErrors(cases);
  });
});
