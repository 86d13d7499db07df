// ws automations: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, parse } from '../helpers/parse.ts';

/** The flags of create and update, none given. */
const NO_DRAFT = {
  name: undefined,
  onChange: [],
  any: undefined,
  onUpdate: false,
  onCreate: undefined,
  onDelete: undefined,
  where: [],
  or: undefined,
  clearWhere: false,
  actions: undefined,
  listId: undefined,
  enabled: undefined,
};

describe('ws automations: parsing', () => {
  it('create: conditions, and action flags in the order typed, a --timezone joining its --wait-cron', async () => {
    const r = await parse([
      'automations',
      'create',
      'deals',
      '--name',
      'Deal won',
      '--on-change',
      'stage:to=won',
      '--on-change',
      'amount',
      '--any',
      '--where',
      'organization.industry=software',
      '--or',
      '--wait',
      '1d',
      '--webhook',
      'Deal alerts',
      '--wait-cron',
      '0 9 * * 1-5',
      '--timezone',
      'Europe/Paris',
      '--agent',
      '4c6e3d2b-8f5a-4b7c-8d9e-1f2a3b4c5d6e',
      '--action-file',
      'email.yaml',
      '--webhook',
      'Second',
      '--list-id',
      '00000000-0000-4000-8000-000000000001',
      '--disabled',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.opts, {
      type: 'deals',
      file: undefined,
      ...NO_DRAFT,
      name: 'Deal won',
      onChange: ['stage:to=won', 'amount'],
      any: true,
      where: ['organization.industry=software'],
      or: true,
      actions: [
        { type: 'wait', value: '1d' },
        { type: 'webhook', value: 'Deal alerts' },
        { type: 'wait-cron', value: '0 9 * * 1-5', timezone: 'Europe/Paris' },
        { type: 'agent', value: '4c6e3d2b-8f5a-4b7c-8d9e-1f2a3b4c5d6e' },
        { type: 'action-file', value: 'email.yaml' },
        { type: 'webhook', value: 'Second' },
      ],
      listId: '00000000-0000-4000-8000-000000000001',
      enabled: false,
    });
  });

  it('create: lifecycle flags; nothing else is actions undefined', async () => {
    const r = await parse([
      'automations',
      'create',
      'contact',
      '--on-create',
      '--on-delete',
      '--file',
      'a.yaml',
    ]);
    assert.deepEqual(r.opts, {
      type: 'contact',
      file: 'a.yaml',
      ...NO_DRAFT,
      onCreate: true,
      onDelete: true,
    });
  });

  it('update: --clear-where, --no-list, --all, --enabled', async () => {
    const r = await parse([
      'automations',
      'update',
      'deal',
      'Deal won',
      '--clear-where',
      '--no-list',
      '--all',
      '--enabled',
    ]);
    assert.deepEqual(r.opts, {
      type: 'deal',
      automation: 'Deal won',
      file: undefined,
      ...NO_DRAFT,
      clearWhere: true,
      listId: null,
      any: false,
      enabled: true,
    });
  });

  it('list, get, delete, enable, disable, runs', async () => {
    assert.deepEqual(
      (
        await parse([
          'automations',
          'list',
          'deal',
          '--kind',
          'update',
          '--list-id',
          'L',
          '--limit',
          '5',
        ])
      ).opts,
      { type: 'deal', kind: 'update', listId: 'L', limit: 5, all: false },
    );
    assert.deepEqual((await parse(['automations', 'get', 'deal', 'X'])).opts, {
      type: 'deal',
      automation: 'X',
    });
    assert.deepEqual((await parse(['automations', 'rm', 'deal', 'X'])).opts, {
      type: 'deal',
      automation: 'X',
    });
    assert.deepEqual((await parse(['automations', 'disable', 'deal', 'X'])).opts, {
      type: 'deal',
      automation: 'X',
      enabled: false,
    });
    assert.deepEqual((await parse(['automations', 'enable', 'deal', 'X'])).opts, {
      type: 'deal',
      automation: 'X',
      enabled: true,
    });
    assert.deepEqual(
      (
        await parse([
          'automations',
          'runs',
          'deal',
          'X',
          '--record',
          'R',
          '--status',
          'waiting',
          '--steps',
          '--all',
        ])
      ).opts,
      {
        type: 'deal',
        automation: 'X',
        record: 'R',
        status: 'waiting',
        steps: true,
        limit: undefined,
        all: true,
      },
    );
  });

  it('usage errors', async () => {
    await assertUsageErrors([
      [
        ['automations', 'create', 'deal', '--timezone', 'UTC'],
        /--timezone gives the time zone of the --wait-cron just before it/,
      ],
      [
        [
          'automations',
          'create',
          'deal',
          '--wait-cron',
          '0 9 * * *',
          '--timezone',
          'UTC',
          '--timezone',
          'UTC',
        ],
        /--timezone gives/,
      ],
      [
        ['automations', 'create', 'deal', '--any', '--all'],
        /--any and --all cannot be used together/,
      ],
      [
        ['automations', 'create', 'deal', '--enabled', '--disabled'],
        /--enabled and --disabled cannot/,
      ],
      [
        ['automations', 'create', 'deal', '--on-update', '--on-change', 'x'],
        /--on-update and --on-change cannot/,
      ],
      [['automations', 'list', 'deal', '--kind', 'other'], /other/],
      [['automations', 'list', 'deal', '--limit', '1', '--all'], /--all and --limit cannot/],
      [['automations', 'runs', '--status', 'done'], /done/],
    ]);
  });
});
