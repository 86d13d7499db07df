// Errors say what to type in ws, not which route of the API to call: the API's messages are
// reworded for every command but `ws api`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { routesInWsWords } from '../../src/route-commands.ts';
import { recordsOf } from '../../src/sandbox/index.ts';
import { UNKNOWN_ID, useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();
const TEAM = '1eb22e83-f148-48e0-8014-0c491b4d1dc9';

/** A contact, soft-deleted. */
function deletedContact(): string {
  const [id] = ctx.s.load('contact', [{ name: 'Gone' }]);
  recordsOf(ctx.s.t.sandbox.store).softDelete('contact', id!);
  return id!;
}

describe('API routes in messages, as ws commands', () => {
  it('rewrites each route the API names, and leaves other text alone', () => {
    const cases: [string, string][] = [
      [
        `Restore it with POST /v2/prism/${TEAM}/contact/${UNKNOWN_ID}/restore.`,
        `Restore it with \`ws records restore contact ${UNKNOWN_ID}\`.`,
      ],
      [
        `Known properties: a, b. GET /v2/prism/${TEAM}/deal/properties lists them.`,
        'Known properties: a, b. `ws props list deal` lists them.',
      ],
      [`List them with GET /v2/prism/${TEAM}/deal/views.`, 'List them with `ws views list deal`.'],
      [
        `Patch the one you mean by id instead: PATCH /v2/prism/${TEAM}/contact/{id}.`,
        'Patch the one you mean by id instead: `ws records update contact ID`.',
      ],
      [`See GET /v2/prism/${TEAM}/imports/imp_1.`, 'See `ws import status imp_1`.'],
      [
        `Try POST /v2/prism/${TEAM}/contact/import, then.`,
        "Try `ws api POST '/v2/prism/{teamId}/contact/import'`, then.",
      ],
      [`List them with GET /v2/prism/${TEAM}/lists.`, 'List them with `ws lists list`.'],
      [
        `pin it first (POST /v2/prism/${TEAM}/deal/views/${UNKNOWN_ID}/records/${UNKNOWN_ID}).`,
        `pin it first (\`ws views pin deal ${UNKNOWN_ID} ${UNKNOWN_ID}\`).`,
      ],
      [
        `unpin one first (DELETE /v2/prism/${TEAM}/deal/views/${UNKNOWN_ID}/records/{objectId}).`,
        `unpin one first (\`ws views unpin deal ${UNKNOWN_ID} ID\`).`,
      ],
      ['Nothing to see here (GET me a coffee).', 'Nothing to see here (GET me a coffee).'],
    ];
    for (const [api, ws] of cases) assert.equal(routesInWsWords(api), ws);
  });
});

describe('errors of ws commands name ws commands', () => {
  it('a deleted record: every verb on it says how to restore it with ws', async () => {
    const id = deletedContact();
    for (const argv of [
      ['get', 'contact', id],
      ['update', 'contacts', id, '--set', 'name=x'],
      ['duplicate', 'contact', id],
    ]) {
      const r = await ctx.s.ws(['records', ...argv]);
      assert.equal(r.code, 4, argv.join(' '));
      assert.match(
        r.stderr,
        new RegExp(
          `^error: The contact record ${id} is deleted\\.\\nRestore it with \`ws records restore contact ${id}\`\\.\\nrequest id: req_\\w+\\n$`,
        ),
        argv.join(' '),
      );
      assert.doesNotMatch(r.stderr, /\/v2\//);
    }
    const json = await ctx.s.ws(['records', 'get', 'contact', id, '--json']);
    assert.equal(JSON.parse(json.stderr).error.message, `The contact record ${id} is deleted.`);
    assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
  });

  it('a record, view or property that does not exist: said from the request, with a ws hint', async () => {
    const record = await ctx.s.ws(['records', 'get', 'deal', UNKNOWN_ID]);
    assert.equal(record.code, 4);
    assert.match(
      record.stderr,
      new RegExp(
        `^error: No deal record has the id ${UNKNOWN_ID}\\.\\nFind ids with \`ws records list deal --fields id\``,
      ),
    );
    const grant = await ctx.s.ws(['records', 'grant', 'get', 'deal', UNKNOWN_ID]);
    assert.equal(grant.code, 4);
    assert.match(grant.stderr, /^error: No deal record has the id/);
    const view = await ctx.s.ws(['views', 'get', 'deal', UNKNOWN_ID]);
    assert.equal(view.code, 4);
    assert.match(
      view.stderr,
      new RegExp(
        `^error: No deal view has the id ${UNKNOWN_ID}\\.\\nList the deal views with \`ws views list deal\`\\.\\n`,
      ),
    );
    assert.doesNotMatch(view.stderr, /\/v2\//);
  });

  it('failed items of a bulk run name ws commands too', async () => {
    const id = deletedContact();
    const file = join(ctx.dir, 'deleted.csv');
    writeFileSync(file, `id,name\n${id},x\n`);
    const r = await ctx.s.ws(['records', 'batch-update', 'contacts', '--file', file]);
    assert.equal(r.code, 5);
    assert.match(r.stderr, new RegExp(`Restore it with \`ws records restore contact ${id}\``));
    assert.doesNotMatch(r.stderr, /\/v2\//);
  });

  it("ws api prints the API's own words", async () => {
    const id = deletedContact();
    const r = await ctx.s.ws(['api', 'GET', `/v2/prism/{teamId}/contact/${id}`]);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /Restore it with POST \/v2\/prism\/[\w-]+\/contact\/[\w-]+\/restore\./);
  });
});
