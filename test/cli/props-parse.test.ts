// ws props: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

const LIST = '00000000-0000-4000-8000-000000000001';

/** The option fields of options add and update, none given. */
const NO_FIELDS = {
  color: undefined,
  description: undefined,
  icon: undefined,
  group: undefined,
  sortIndex: undefined,
};

describe('ws props: parsing', () => {
  it('list and get', async () => {
    assert.deepEqual(await options(['props', 'list']), {
      objectType: undefined,
      term: undefined,
      listId: undefined,
      options: false,
    });
    assert.deepEqual(
      await options([
        'properties',
        'ls',
        'contacts',
        '--term',
        'mail',
        '--list-id',
        LIST,
        '--options',
      ]),
      { objectType: 'contacts', term: 'mail', listId: LIST, options: true },
    );
    assert.deepEqual(await options(['props', 'get', 'deal', 'stage', '--list-id', LIST]), {
      objectType: 'deal',
      property: 'stage',
      listId: LIST,
    });
  });

  it('create: every flag, and --option repeated in order', async () => {
    assert.deepEqual(
      await options([
        'props',
        'create',
        'contact',
        '--name',
        'Lead source',
        '--type',
        'select_str',
        '--slug',
        'lead_source',
        '--required',
        '--icon',
        'star',
        '--list-id',
        LIST,
        '--role-id',
        'R',
        '--option',
        'Web',
        '--option',
        'Referral',
      ]),
      {
        objectType: 'contact',
        name: 'Lead source',
        type: 'select_str',
        slug: 'lead_source',
        required: true,
        icon: 'star',
        listId: LIST,
        roleId: 'R',
        options: ['Web', 'Referral'],
      },
    );
    assert.deepEqual(await options(['props', 'create', 'contact']), {
      objectType: 'contact',
      name: undefined,
      type: undefined,
      slug: undefined,
      required: false,
      icon: undefined,
      listId: undefined,
      roleId: undefined,
      options: [],
    });
  });

  it('update: flags that set, flags that clear, flags left out', async () => {
    assert.deepEqual(
      await options([
        'props',
        'update',
        'contact',
        'email',
        '--name',
        'E-mail',
        '--icon',
        'at',
        '--required',
        '--enable',
        '--list-id',
        LIST,
      ]),
      {
        objectType: 'contact',
        property: 'email',
        name: 'E-mail',
        icon: 'at',
        required: true,
        enabled: true,
        listId: LIST,
      },
    );
    assert.deepEqual(
      await options([
        'props',
        'update',
        'contact',
        'email',
        '--no-icon',
        '--no-required',
        '--disable',
        '--no-list-id',
      ]),
      {
        objectType: 'contact',
        property: 'email',
        name: undefined,
        icon: null,
        required: false,
        enabled: false,
        listId: null,
      },
    );
    assert.deepEqual(await options(['props', 'update', 'contact', 'email']), {
      objectType: 'contact',
      property: 'email',
      name: undefined,
      icon: undefined,
      required: undefined,
      enabled: undefined,
      listId: undefined,
    });
  });

  it('delete, and options list and remove', async () => {
    assert.deepEqual(await options(['props', 'rm', 'contact', 'email']), {
      objectType: 'contact',
      property: 'email',
    });
    assert.deepEqual(await options(['props', 'options', 'ls', 'deal', 'stage']), {
      objectType: 'deal',
      property: 'stage',
    });
    assert.deepEqual(await options(['props', 'options', 'remove', 'deal', 'stage', 'won']), {
      objectType: 'deal',
      property: 'stage',
      option: 'won',
    });
  });

  it('options add and update: the option fields, their --no- twins and --sort-index', async () => {
    assert.deepEqual(
      await options([
        'props',
        'options',
        'add',
        'deal',
        'stage',
        'Won',
        '--slug',
        'won',
        '--color-scheme',
        'green',
        '--description',
        'closed',
        '--icon',
        'trophy',
        '--group',
        'end',
        '--sort-index',
        '2.5',
      ]),
      {
        objectType: 'deal',
        property: 'stage',
        value: 'Won',
        slug: 'won',
        color: 'green',
        description: 'closed',
        icon: 'trophy',
        group: 'end',
        sortIndex: 2.5,
      },
    );
    assert.deepEqual(
      await options([
        'props',
        'options',
        'update',
        'deal',
        'stage',
        'won',
        '--value',
        'Won!',
        '--no-color-scheme',
        '--no-description',
        '--no-icon',
        '--no-group',
        '--no-sort-index',
      ]),
      {
        objectType: 'deal',
        property: 'stage',
        option: 'won',
        value: 'Won!',
        slug: undefined,
        color: null,
        description: null,
        icon: null,
        group: null,
        sortIndex: null,
        enabled: undefined,
        listId: undefined,
      },
    );
    assert.deepEqual(await options(['props', 'options', 'update', 'deal', 'stage', 'won']), {
      objectType: 'deal',
      property: 'stage',
      option: 'won',
      value: undefined,
      slug: undefined,
      ...NO_FIELDS,
      enabled: undefined,
      listId: undefined,
    });
    assert.deepEqual(
      await options([
        'props',
        'options',
        'update',
        'deal',
        'stage',
        'won',
        '--disable',
        '--list-id',
        LIST,
      ]),
      {
        objectType: 'deal',
        property: 'stage',
        option: 'won',
        value: undefined,
        slug: undefined,
        ...NO_FIELDS,
        enabled: false,
        listId: LIST,
      },
    );
    const argv = ['props', 'options', 'update', 'deal', 'stage', 'won', '--enable', '--no-list-id'];
    const cleared = (await options(argv)) as Record<string, unknown>;
    assert.deepEqual([cleared['enabled'], cleared['listId']], [true, null]);
  });

  it('export, diff and apply', async () => {
    assert.deepEqual(await options(['props', 'export', 'contact', 'deal', '-o', 'schema.yaml']), {
      objectTypes: ['contact', 'deal'],
      output: 'schema.yaml',
    });
    assert.deepEqual(await options(['props', 'diff', '-f', 'schema.yaml', '--prune']), {
      file: 'schema.yaml',
      prune: true,
    });
    assert.deepEqual(await options(['props', 'apply', '--file', '-', '--dry-run']), {
      file: '-',
      dryRun: true,
      prune: false,
    });
  });

  it('usage errors: exit 2 before any verb runs', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['props', 'update', 'contact', 'email', '--enable', '--disable'],
        /--enable and --disable cannot be used together/,
      ],
      [
        ['props', 'options', 'add', 'deal', 'stage', 'Won', '--sort-index', 'first'],
        /--sort-index takes a number, not "first"/,
      ],
      [['props', 'apply'], /Required option '-f, --file <file>' not specified/],
      [
        ['props', 'options', 'add', 'deal', 'stage', 'Won', '--no-icon'],
        /[Uu]nknown option '--no-icon'/,
      ],
    ];
    await assertUsageErrors(cases);
  });
});
