// ws records: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

const ID = '7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a';
const LIST = '00000000-0000-4000-8000-000000000001';

/** The read flags (filter, --select, --sort, …), none given. */
const NO_READ = {
  where: [],
  or: false,
  filterJson: undefined,
  select: undefined,
  sort: undefined,
  deleted: false,
  listId: undefined,
  body: undefined,
};

/** list and query with no flag but the type. */
const NO_LIST = { ...NO_READ, limit: undefined, all: false, total: false };

describe('ws records: parsing', () => {
  it('list: every flag', async () => {
    assert.deepEqual(
      await options([
        'records',
        'list',
        'deals',
        '--where',
        'amount>=1000',
        '--where',
        'stage:in=won,lost',
        '--or',
        '--filter-json',
        '[{"name":{"contains":"a"}}]',
        '--deleted',
        '--list-id',
        LIST,
        '--select',
        'name,amount',
        '--sort',
        '-amount',
        '--limit',
        '200',
        '--total',
      ]),
      {
        type: 'deals',
        where: ['amount>=1000', 'stage:in=won,lost'],
        or: true,
        filterJson: '[{"name":{"contains":"a"}}]',
        select: 'name,amount',
        sort: '-amount',
        deleted: true,
        listId: LIST,
        body: undefined,
        limit: 200,
        all: false,
        total: true,
      },
    );
  });

  it('list: nothing but the type, through the aliases', async () => {
    assert.deepEqual(await options(['records', 'list', 'contacts']), {
      type: 'contacts',
      ...NO_LIST,
    });
    assert.deepEqual(await options(['record', 'ls', 'contact', '--all']), {
      type: 'contact',
      ...NO_LIST,
      all: true,
    });
  });

  it('query: --body with the list flags', async () => {
    assert.deepEqual(
      await options(['records', 'query', 'contacts', '--body', '@q.json', '--limit', '5']),
      { type: 'contacts', ...NO_LIST, body: '@q.json', limit: 5 },
    );
  });

  it('count: the filter flags only', async () => {
    assert.deepEqual(
      await options(['records', 'count', 'deals', '--where', 'stage=won', '--deleted']),
      {
        type: 'deals',
        where: ['stage=won'],
        or: false,
        filterJson: undefined,
        deleted: true,
        listId: undefined,
      },
    );
  });

  it('get, delete, restore, duplicate, edit', async () => {
    assert.deepEqual(await options(['records', 'get', 'contact', ID, '--select', 'name']), {
      type: 'contact',
      id: ID,
      select: 'name',
    });
    assert.deepEqual(await options(['records', 'rm', 'deal', ID, '--if-match', 'W/"3"']), {
      type: 'deal',
      id: ID,
      ifMatch: 'W/"3"',
      where: [],
      or: false,
      filterJson: undefined,
      listId: undefined,
      dryRun: false,
      concurrency: undefined,
      report: undefined,
    });
    assert.deepEqual(
      await options([
        'records',
        'delete',
        'deals',
        '--where',
        'stage=lost',
        '--or',
        '--where',
        'amount<10',
        '--dry-run',
        '--concurrency',
        '2',
      ]),
      {
        type: 'deals',
        id: undefined,
        ifMatch: undefined,
        where: ['stage=lost', 'amount<10'],
        or: true,
        filterJson: undefined,
        listId: undefined,
        dryRun: true,
        concurrency: 2,
        report: undefined,
      },
    );
    assert.deepEqual(await options(['records', 'restore', 'deal', ID]), { type: 'deal', id: ID });
    assert.deepEqual(await options(['records', 'duplicate', 'deal', ID]), {
      type: 'deal',
      id: ID,
    });
    assert.deepEqual(await options(['records', 'edit', 'deal', ID, '--from', 'kept.yaml']), {
      type: 'deal',
      id: ID,
      from: 'kept.yaml',
    });
  });

  it('create, update and upsert: --set (repeatable) and --data', async () => {
    assert.deepEqual(
      await options([
        'records',
        'create',
        'contact',
        '--set',
        'name=Ada Lovelace',
        '--set',
        'tags=vip',
      ]),
      { type: 'contact', set: ['name=Ada Lovelace', 'tags=vip'], data: undefined },
    );
    assert.deepEqual(
      await options([
        'records',
        'update',
        'deal',
        ID,
        '--data',
        '{"amount":1}',
        '--if-match',
        'W/"1"',
      ]),
      { type: 'deal', id: ID, set: [], data: '{"amount":1}', ifMatch: 'W/"1"' },
    );
    assert.deepEqual(
      await options(['records', 'upsert', 'contacts', 'email', 'ada@example.com', '--set', 'a=1']),
      { type: 'contacts', slug: 'email', value: 'ada@example.com', set: ['a=1'], data: undefined },
    );
  });

  it('create and update follow one rule: neither --set nor --data is a usage error', async () => {
    await assertUsageErrors([
      [
        ['records', 'create', 'contacts'],
        /Nothing to create: give --set slug=value \(repeatable\) or --data JSON\.\n.*--data '\{\}' creates a record with no values/,
      ],
      [
        ['records', 'update', 'contacts', ID],
        new RegExp(
          `Nothing to update: give --set slug=value \\(repeatable\\) or --data JSON\\.\\nFor example: ws records update contacts ${ID} --set`,
        ),
      ],
    ]);
    assert.deepEqual(await options(['records', 'create', 'contact', '--data', '{}']), {
      type: 'contact',
      set: [],
      data: '{}',
    });
  });

  it('short flags: -f is --file, -o is --output, as everywhere in ws', async () => {
    const update = (await options(['records', 'batch-update', 'contacts', '-f', 'x.csv'])) as {
      file: string;
    };
    assert.equal(update.file, 'x.csv');
    const del = (await options(['records', 'batch-delete', 'contacts', '-f', '-', '--yes'])) as {
      file: string;
    };
    assert.equal(del.file, '-');
    const exp = (await options(['records', 'export', 'deals', '-o', 'won.csv'])) as {
      output: string;
    };
    assert.equal(exp.output, 'won.csv');
  });

  it('find: --list-id', async () => {
    assert.deepEqual(
      await options(['records', 'find', 'contacts', 'email', 'a@b.c', '--list-id', LIST]),
      { type: 'contacts', slug: 'email', value: 'a@b.c', listId: LIST },
    );
  });

  it('batch-update and batch-delete: the file, its format, concurrency and report', async () => {
    assert.deepEqual(
      await options([
        'records',
        'batch-update',
        'contacts',
        '--file',
        'changes.json',
        '--input-format',
        'ndjson',
        '--concurrency',
        '8',
        '--report',
        'out.ndjson',
      ]),
      {
        type: 'contacts',
        file: 'changes.json',
        inputFormat: 'ndjson',
        dryRun: false,
        concurrency: 8,
        report: 'out.ndjson',
      },
    );
    assert.deepEqual(await options(['records', 'batch-delete', 'contacts', ID, ID]), {
      type: 'contacts',
      ids: [ID, ID],
      file: undefined,
      dryRun: false,
      concurrency: undefined,
      report: undefined,
    });
    assert.deepEqual(
      await options(['records', 'batch-delete', 'contacts', '--file', '-', '--dry-run']),
      {
        type: 'contacts',
        ids: [],
        file: '-',
        dryRun: true,
        concurrency: undefined,
        report: undefined,
      },
    );
  });

  it('export: the read flags, --output and --raw', async () => {
    assert.deepEqual(
      await options(['records', 'export', 'deals', '--where', 'stage=won', '--output', 'won.csv']),
      {
        type: 'deals',
        ...NO_READ,
        where: ['stage=won'],
        output: 'won.csv',
        raw: false,
      },
    );
    assert.deepEqual(await options(['records', 'export', 'deals', '--raw']), {
      type: 'deals',
      ...NO_READ,
      output: undefined,
      raw: true,
    });
  });

  it('grant get and grant set', async () => {
    assert.deepEqual(await options(['records', 'grant', 'get', 'deal', ID]), {
      action: 'get',
      type: 'deal',
      id: ID,
    });
    assert.deepEqual(
      await options([
        'records',
        'grant',
        'set',
        'deal',
        ID,
        '--user',
        'u1=w',
        '--user',
        'u2=r',
        '--team',
        't1=r',
        '--share-level',
        'full',
      ]),
      {
        action: 'set',
        type: 'deal',
        id: ID,
        user: ['u1=w', 'u2=r'],
        team: ['t1=r'],
        group: [],
        shareLevel: 'full',
        data: undefined,
      },
    );
  });

  it('usage errors: exit 2 before any verb runs, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['records', 'get', 'contact'], /Missing ID: `ws records get` needs a record id/],
      [
        ['records', 'list', 'deals', '--limit', '0'],
        /--limit takes a whole number at least 1, not "0"/,
      ],
      [
        ['records', 'list', 'deals', '--all', '--limit', '3'],
        /--all and --limit cannot be used together/,
      ],
      [
        ['records', 'query', 'deals', '--limit', 'x'],
        /--limit takes a whole number at least 1, not "x"/,
      ],
      [
        ['records', 'batch-delete', 'deals', '--concurrency', '99'],
        /--concurrency takes a whole number from 1 to 16, not "99"/,
      ],
      [
        ['records', 'batch-update', 'deals', '--input-format', 'xml'],
        /Allowed choices are csv, ndjson, json/,
      ],
      [['records', 'list', 'deals', '--since', '1h'], /[Uu]nknown option '--since'/],
    ];
    await assertUsageErrors(cases);
  });
});
