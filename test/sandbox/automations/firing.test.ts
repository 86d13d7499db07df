// Which automations fire, over every write path of the API: a table of writes (create,
// patch, upsert created and patched, duplicate, batch update, delete, batch delete, restore,
// imports creating and dedupe-updating rows, sync and async) against automations of both
// kinds, enabled and not, with and without a list, asserting exactly which ones fired, in
// which order.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.ts';
import {
  api,
  createAutomation,
  createRecord,
  firedSince,
  LIST_A,
  lastSequence,
  ok,
  sandboxFor,
  WEBHOOK_ID,
} from './helpers.ts';

const webhook = [{ type: 'webhook', webhook_id: WEBHOOK_ID }];
const any = { filter: [] };

/** The automations of the table, created in this order (so they fire in this order). */
const AUTOMATIONS: Record<string, unknown>[] = [
  { name: 'U stage', kind: 'update', changeset: { filter: [{ stage: {} }] } },
  { name: 'U stage off', kind: 'update', changeset: { filter: [{ stage: {} }] }, enabled: false },
  { name: 'U stage L', kind: 'update', changeset: { filter: [{ stage: {} }] }, list_id: LIST_A },
  { name: 'U amount', kind: 'update', changeset: { filter: [{ amount: {} }] } },
  { name: 'C', kind: 'lifecycle', on_create: true, state: any },
  { name: 'C off', kind: 'lifecycle', on_create: true, state: any, enabled: false },
  { name: 'C L', kind: 'lifecycle', on_create: true, state: any, list_id: LIST_A },
  { name: 'D', kind: 'lifecycle', on_delete: true, state: any },
  { name: 'D L', kind: 'lifecycle', on_delete: true, state: any, list_id: LIST_A },
  { name: 'CD', kind: 'lifecycle', on_create: true, on_delete: true, state: any },
  { name: 'never', kind: 'lifecycle', state: any },
];

interface Case {
  name: string;
  /** Records made before the write (not counted). */
  setup?: (s: RunningSandbox) => Promise<string[]>;
  write: (s: RunningSandbox, ids: string[]) => Promise<void>;
  fired: string[];
}

const inA = { [LIST_A]: {} };
const deal = (s: RunningSandbox, name: string, lists?: Record<string, Record<string, unknown>>) =>
  createRecord(s, 'deal', { name, stage: 'lead', amount: 10 }, lists);

const CASES: Case[] = [
  {
    name: 'create',
    write: async (s) => void (await deal(s, 'new')),
    fired: ['C', 'CD'],
  },
  {
    name: 'create in list A',
    write: async (s) => void (await deal(s, 'new', inA)),
    fired: ['C', 'C L', 'CD'],
  },
  {
    name: 'patch of stage',
    setup: async (s) => [await deal(s, 'a')],
    write: async (s, [id]) =>
      void ok(await api(s).patch(`deal/${id}`, { default: { stage: 'won' } })),
    fired: ['U stage'],
  },
  {
    name: 'patch of stage of a member of list A',
    setup: async (s) => [await deal(s, 'a', inA)],
    write: async (s, [id]) =>
      void ok(await api(s).patch(`deal/${id}`, { default: { stage: 'won' } })),
    fired: ['U stage', 'U stage L'],
  },
  {
    name: 'patch of stage and amount',
    setup: async (s) => [await deal(s, 'a')],
    write: async (s, [id]) =>
      void ok(await api(s).patch(`deal/${id}`, { default: { stage: 'won', amount: 20 } })),
    fired: ['U stage', 'U amount'],
  },
  {
    name: 'patch that sets what is there',
    setup: async (s) => [await deal(s, 'a')],
    write: async (s, [id]) =>
      void ok(await api(s).patch(`deal/${id}`, { default: { stage: 'lead' } })),
    fired: [],
  },
  {
    name: 'upsert that creates',
    write: async (s) =>
      void ok(await api(s).put('deal/by/name/fresh', { default: { stage: 'lead' } }), 201),
    fired: ['C', 'CD'],
  },
  {
    name: 'upsert that patches',
    setup: async (s) => [await deal(s, 'known')],
    write: async (s) =>
      void ok(await api(s).put('deal/by/name/known', { default: { stage: 'won' } })),
    fired: ['U stage'],
  },
  {
    name: 'duplicate of a member of list A',
    setup: async (s) => [await deal(s, 'a', inA)],
    write: async (s, [id]) => void ok(await api(s).post(`deal/${id}/duplicate`, undefined), 201),
    fired: ['C', 'C L', 'CD'],
  },
  {
    name: 'batch update of two records',
    setup: async (s) => [await deal(s, 'a'), await deal(s, 'b')],
    write: async (s, ids) =>
      void ok(
        await api(s).post('deal/batch/update', {
          items: ids.map((id) => ({ id, default: { stage: 'won' } })),
        }),
      ),
    fired: ['U stage', 'U stage'],
  },
  {
    name: 'delete',
    setup: async (s) => [await deal(s, 'a')],
    write: async (s, [id]) => void ok(await api(s).delete(`deal/${id}`), 204),
    fired: ['D', 'CD'],
  },
  {
    name: 'delete of a member of list A, and again',
    setup: async (s) => [await deal(s, 'a', inA)],
    write: async (s, [id]) => {
      ok(await api(s).delete(`deal/${id}`), 204);
      ok(await api(s).delete(`deal/${id}`), 204);
    },
    fired: ['D', 'D L', 'CD'],
  },
  {
    name: 'batch delete of two records',
    setup: async (s) => [await deal(s, 'a'), await deal(s, 'b')],
    write: async (s, ids) => void ok(await api(s).post('deal/batch/delete', { ids })),
    fired: ['D', 'CD', 'D', 'CD'],
  },
  {
    name: 'restore of a deleted member of list A (counts as a create)',
    setup: async (s) => {
      const id = await deal(s, 'a', inA);
      ok(await api(s).delete(`deal/${id}`), 204);
      return [id];
    },
    write: async (s, [id]) => void ok(await api(s).post(`deal/${id}/restore`, undefined)),
    fired: ['C', 'C L', 'CD'],
  },
  {
    name: 'restore of an active record',
    setup: async (s) => [await deal(s, 'a')],
    write: async (s, [id]) => void ok(await api(s).post(`deal/${id}/restore`, undefined)),
    fired: [],
  },
  {
    name: 'import: one row creates, one dedupe-updates, one changes nothing',
    setup: async (s) => [await deal(s, 'imported 1'), await deal(s, 'imported 2')],
    write: async (s) => {
      const answer = ok(
        await api(s).post('deal/import', {
          objects: [
            { default: { name: 'imported 0', stage: 'lead' } },
            { default: { name: 'imported 1', stage: 'won' } },
            { default: { name: 'imported 2', stage: 'lead' } },
          ],
          options: { dedupe_by: 'name' },
        }),
      );
      assert.deepEqual(
        answer.body.results.map((r: { created: boolean; updated: boolean }) => [
          r.created,
          r.updated,
        ]),
        [
          [true, false],
          [false, true],
          [false, false],
        ],
      );
    },
    fired: ['C', 'CD', 'U stage'],
  },
  {
    name: 'import into list A (async job of 100 rows)',
    write: async (s) => {
      const objects = Array.from({ length: 100 }, (_, i) => ({ default: { name: `row ${i}` } }));
      const started = ok(
        await api(s).post('deal/import', { objects, options: { list_id: LIST_A } }),
        202,
      );
      let job = started.body;
      while (job.status === 'processing') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = ok(await api(s).get(`imports/${job.job_id}`)).body;
      }
      assert.equal(job.succeeded, 100);
    },
    fired: Array.from({ length: 100 }, () => ['C', 'C L', 'CD']).flat(),
  },
];

describe('automations: which fire on each write path', () => {
  test('exactly the enabled automations whose kind, trigger and list fit', async (t) => {
    const sandbox = await sandboxFor(t);
    for (const body of AUTOMATIONS) {
      await createAutomation(sandbox, 'deal', { ...body, actions: webhook });
    }
    for (const c of CASES) {
      const ids = (await c.setup?.(sandbox)) ?? [];
      const before = await lastSequence(sandbox);
      await c.write(sandbox, ids);
      assert.deepEqual(await firedSince(sandbox, before), c.fired, c.name);
    }
  });

  test('automations of another object type, and writes of another type, do not meet', async (t) => {
    const sandbox = await sandboxFor(t);
    await createAutomation(sandbox, 'contact', {
      name: 'contacts',
      kind: 'lifecycle',
      on_create: true,
      state: any,
    });
    await createRecord(sandbox, 'deal', { name: 'x' });
    assert.deepEqual(await firedSince(sandbox, 0), []);
    await createRecord(sandbox, 'contact', { name: 'y' });
    assert.deepEqual(await firedSince(sandbox, 0), ['contacts']);
  });
});
