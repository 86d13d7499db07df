// ws views records / pin / unpin / reorder against the sandbox: the records of a view with
// its pinned ones first, on a terminal and piped; pins added, reordered and removed, each
// checked in the sandbox's store.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { viewsOf } from '../../src/sandbox/resources/views/model.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let t: TestSandbox;
let env: Record<string, string>;
const deals: string[] = [];
let viewId: string;

before(async () => {
  t = await startTestSandbox();
  env = { ...(t.env as Record<string, string>), WS_NO_CACHE: '1', NO_COLOR: '1' };
});
after(() => t.stop());

beforeEach(async () => {
  t.sandbox.reset();
  deals.length = 0;
  for (const [name, amount] of [
    ['Acme', 30_000],
    ['Bolt', 20_000],
    ['Cogs', 10_000],
  ] as const) {
    deals.push(recordsOf(t.sandbox.store).create('deal', { default: { name, amount } }).id);
  }
  const r = await runWs(
    [
      'views',
      'create',
      'deal',
      '--name',
      'By amount',
      '--select',
      'name,amount',
      '--sort',
      '-amount',
      '--json',
    ],
    { env },
  );
  assert.equal(r.code, 0, r.stderr);
  viewId = JSON.parse(r.stdout).id;
});

const pinnedInStore = () =>
  viewsOf(t.sandbox.store).get(t.sandbox.teamId, 'deal', viewId).record_order;

describe('ws views pin, reorder, unpin', () => {
  it('pin appends in the order given; reorder puts the ids given first; unpin removes', async () => {
    const pin = await runWs(['views', 'pin', 'deal', 'By amount', deals[2]!, deals[1]!], { env });
    assert.equal(pin.code, 0, pin.stderr);
    assert.match(pin.stderr, /Pinned 2 deal records to view "By amount" \(2 pinned in all\)\./);
    assert.match(pin.stdout, new RegExp(`record_order\\t${deals[2]};${deals[1]}\\n`));
    assert.deepEqual(pinnedInStore(), [deals[2], deals[1]]);

    const reorder = await runWs(['views', 'reorder', 'deals', viewId, deals[1]!, '--json'], {
      env,
    });
    assert.equal(reorder.code, 0, reorder.stderr);
    assert.deepEqual(JSON.parse(reorder.stdout).record_order, [deals[1], deals[2]]);
    assert.deepEqual(pinnedInStore(), [deals[1], deals[2]]);

    const notPinned = await runWs(['views', 'reorder', 'deal', viewId, deals[0]!], { env });
    assert.equal(notPinned.code, 2, 'a 400 is a usage error');
    assert.match(
      notPinned.stderr,
      /is not pinned in this view: pin it first \(`ws views pin deal /,
    );

    const unpin = await runWs(['views', 'unpin', 'deal', viewId, deals[1]!, '--json'], { env });
    assert.equal(unpin.code, 0, unpin.stderr);
    assert.deepEqual(JSON.parse(unpin.stdout), { view_id: viewId, unpinned: [deals[1]] });
    assert.deepEqual(pinnedInStore(), [deals[2]]);
    const again = await runWs(['views', 'unpin', 'deal', viewId, deals[1]!], { env });
    assert.equal(again.code, 4);
    assert.match(again.stderr, /is not pinned in the view 'By amount'/);
  });

  it('ids are checked before any request; an unknown record is exit 4', async () => {
    const bad = await runWs(['views', 'pin', 'deal', viewId, 'nope'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"nope" is not a record id/);
    const twice = await runWs(['views', 'pin', 'deal', viewId, deals[0]!, deals[0]!], { env });
    assert.equal(twice.code, 2);
    const unknown = await runWs(
      ['views', 'pin', 'deal', viewId, '00000000-0000-4000-8000-000000000000'],
      { env },
    );
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /No deal record has the id/);
    const missing = await runWs(['views', 'pin', 'deal', viewId], { env });
    assert.equal(missing.code, 2);
  });
});

describe('ws views records', () => {
  it('pinned records first, then the view’s sort; a PINNED column on a terminal', async () => {
    await runWs(['views', 'pin', 'deal', viewId, deals[2]!], { env });
    const tty = await runWs(['views', 'records', 'deal', 'By amount'], { env, tty: true });
    assert.equal(tty.code, 0, tty.stderr);
    const lines = tty.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^NAME\s+AMOUNT\s+PINNED$/);
    assert.match(lines[1]!, /^Cogs\s+10000\s+pinned$/);
    assert.match(lines[2]!, /^Acme\s+30000$/);
    assert.match(lines[3]!, /^Bolt\s+20000$/);

    const piped = await runWs(['views', 'records', 'deal', viewId], { env });
    assert.equal(piped.stdout, 'Cogs\t10000\ttrue\nAcme\t30000\t\nBolt\t20000\t\n');
    const json = await runWs(['views', 'records', 'deal', viewId, '--json'], { env });
    const rows = JSON.parse(json.stdout);
    assert.deepEqual(rows[0], {
      id: deals[2],
      properties: { name: 'Cogs', amount: 10_000 },
      pinned: true,
    });
    assert.equal(rows[1].pinned, false);

    const one = await runWs(
      ['views', 'records', 'deal', viewId, '--limit', '1', '--fields', 'id'],
      {
        env,
      },
    );
    assert.equal(one.stdout, `${deals[2]}\n`);
    assert.match(one.stderr, /Showing the first 1 record of deal view "By amount"; more match it/);
  });

  it('a view without pins has no PINNED column on a terminal', async () => {
    const tty = await runWs(['views', 'records', 'deal', viewId], { env, tty: true });
    assert.match(tty.stdout.split('\n')[0]!, /^NAME\s+AMOUNT$/);
    const piped = await runWs(['views', 'records', 'deal', viewId], { env });
    assert.equal(piped.stdout.split('\n')[0], 'Acme\t30000\t', 'piped, the column is always there');
  });
});
