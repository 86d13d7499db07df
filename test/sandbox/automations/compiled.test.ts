// The sandbox keeps compiled automations for reuse (src/sandbox/resources/automations/
// compiled.ts) across definition changes and resets, so what it reuses must still hold: an
// automation whose condition names a select option by its display value fires by the
// options as they are now, after they were renamed, and after a reset that brings back
// the same definitions.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningSandbox } from '../../../src/sandbox/sandbox.ts';
import {
  AGENT_ID,
  api,
  createAutomation,
  createRecord,
  firedSince,
  lastSequence,
  ok,
  sandboxFor,
} from './helpers.ts';

const GOLD = {
  name: 'Gold contacts',
  kind: 'lifecycle',
  on_create: true,
  state: { filter: [{ level: { '=': 'Gold' } }] },
  actions: [{ type: 'agent', agent_id: AGENT_ID }],
};

/** A select property `level` with the options gold (Gold) and silver (Silver). */
async function level(
  sandbox: RunningSandbox,
): Promise<{ id: string; options: { id: string; slug: string }[] }> {
  return ok(
    await api(sandbox).post('contact/properties', {
      name: 'Level',
      slug: 'level',
      type: 'select_str',
      options: [
        { value: 'Gold', slug: 'gold' },
        { value: 'Silver', slug: 'silver' },
      ],
    }),
    201,
  ).body;
}

/** The automations fired by creating a contact at each level, in order. */
async function firedFor(sandbox: RunningSandbox, levels: string[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const value of levels) {
    const last = await lastSequence(sandbox);
    await createRecord(sandbox, 'contact', { name: `At ${value}`, level: value });
    out.push(await firedSince(sandbox, last));
  }
  return out;
}

describe('automations: compiled conditions follow the definitions', () => {
  test('an option named by display value is read as the options are now', async (t) => {
    const sandbox = await sandboxFor(t);
    const http = api(sandbox);
    const property = await level(sandbox);
    await createAutomation(sandbox, 'contact', GOLD);
    assert.deepEqual(await firedFor(sandbox, ['gold', 'silver']), [['Gold contacts'], []]);

    // The display values swap: 'Gold' now names the option silver.
    const option = (slug: string) => property.options.find((o) => o.slug === slug)!.id;
    const rename = async (slug: string, value: string) =>
      ok(
        await http.patch(`contact/properties/${property.id}/options/${option(slug)}`, {
          type: 'select_str',
          value,
        }),
      );
    await rename('gold', 'Platinum');
    await rename('silver', 'Gold');
    assert.deepEqual(await firedFor(sandbox, ['gold', 'silver']), [[], ['Gold contacts']]);

    // The same automation made again, after a reset, with the options as first made.
    ok(await http.control('POST', 'reset'), 204);
    await level(sandbox);
    await createAutomation(sandbox, 'contact', GOLD);
    assert.deepEqual(await firedFor(sandbox, ['gold', 'silver']), [['Gold contacts'], []]);
  });
});
