// `ws import --create-missing-options` and `--no-update`: the API's import options
// create_missing_options and update_existing, the local checks that agree with them, the
// dry run listing the options it would create, and the summary's counts.

import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { recordsOf } from '../../src/sandbox/index.ts';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();
beforeEach(() => {
  propertiesOf(ctx.s.t.sandbox.store).create(ctx.s.t.sandbox.teamId, 'contact', {
    name: 'Tier',
    slug: 'tier',
    type: 'select_str',
    options: [{ value: 'Gold' }],
  });
  propertiesOf(ctx.s.t.sandbox.store).create(ctx.s.t.sandbox.teamId, 'contact', {
    name: 'Skills',
    slug: 'skills',
    type: 'multiselect_str',
  });
});

const ws = (argv: string[]) => ctx.s.ws(argv, { env: { WS_NO_CACHE: '1' } });
const contacts = () =>
  [...recordsOf(ctx.s.t.sandbox.store).records('contact')].map((r) => r.default);
const optionsOf = (slug: string) =>
  propertiesOf(ctx.s.t.sandbox.store)
    .bySlug(ctx.s.t.sandbox.teamId, 'contact', slug)!
    .options!.map((o) => o.value);

function write(name: string, text: string): string {
  const path = join(ctx.dir, name);
  writeFileSync(path, text);
  rmSync(path.replace(/\.csv$/, '.failed.csv'), { force: true });
  return path;
}

const TIERS =
  'Name,Email,Tier,Skills\nA,a@x.example,Platinum,Go;Rust\nB,b@x.example,platinum,go\nC,c@x.example,Gold,\nD,d@x.example,Diamond,\n';
let NEW_VALUES: string;
beforeEach(() => {
  NEW_VALUES = write('tiers.csv', TIERS);
});

describe('ws import --create-missing-options', () => {
  it('without it, rows naming a missing option fail before they are sent', async () => {
    const r = await ws(['import', 'contact', NEW_VALUES, '--json']);
    assert.equal(r.code, 5, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.deepEqual([summary.created, summary.failed], [1, 3]);
    assert.equal(summary.new_options, undefined);
    const failed = readFileSync(NEW_VALUES.replace(/\.csv$/, '.failed.csv'), 'utf8');
    assert.match(failed, /unknown_option,"?Tier: ""?Platinum""? is not an option of tier/);
    assert.deepEqual(optionsOf('tier'), ['Gold']);
  });

  it('--dry-run and import validate list the options that would be created, and send nothing', async () => {
    for (const argv of [
      ['import', 'contact', NEW_VALUES, '--create-missing-options', '--dry-run'],
      ['import', 'validate', 'contact', NEW_VALUES, '--create-missing-options'],
    ]) {
      const r = await ws(argv);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /valid\s+4/);
      assert.match(
        r.stderr,
        /4 options would be created \(tier: Platinum, skills: Go, skills: Rust, tier: Diamond\)/,
      );
      const json = await ws([...argv, '--json']);
      assert.deepEqual(JSON.parse(json.stdout).new_options, [
        { property: 'tier', value: 'Platinum' },
        { property: 'skills', value: 'Go' },
        { property: 'skills', value: 'Rust' },
        { property: 'tier', value: 'Diamond' },
      ]);
    }
    assert.equal(ctx.s.count(/\/import /), 0);
    assert.deepEqual(optionsOf('tier'), ['Gold']);
  });

  it('imports the rows, creating the options; the summary names them', async () => {
    const r = await ws(['import', 'contact', NEW_VALUES, '--create-missing-options', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.deepEqual([summary.created, summary.failed], [4, 0]);
    assert.equal(summary.new_options.length, 4);
    assert.deepEqual(optionsOf('tier'), ['Gold', 'Platinum', 'Diamond']);
    assert.deepEqual(optionsOf('skills'), ['Go', 'Rust']);
    assert.deepEqual(
      contacts().map((c) => [c['tier'], c['skills']]),
      [
        ['platinum', ['go', 'rust']],
        ['platinum', ['go']],
        ['gold', undefined],
        ['diamond', undefined],
      ],
    );
    const human = await ws([
      'import',
      'contact',
      write('more.csv', 'Name,Tier\nE,Silver\n'),
      '--create-missing-options',
    ]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /1 option new \(tier: Silver\)/);
  });

  it('a locked shared definition: the row still fails before sending', async () => {
    const path = write('status.csv', 'Name,Status\nA,prospect\nB,lead\n');
    const r = await ws(['import', 'contact', path, '--create-missing-options', '--json']);
    assert.equal(r.code, 5, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.deepEqual([summary.created, summary.failed, summary.new_options], [1, 1, []]);
  });
});

describe('ws import --no-update', () => {
  it('with --dedupe-by: matched records stay as they are, counted as existing, left unchanged', async () => {
    ctx.s.load('contact', [{ name: 'Old', email: 'a@x.example' }]);
    const path = write('again.csv', 'Name,Email\nNew name,a@x.example\nB,b@x.example\n');
    const keep = ['import', 'contact', path, '--dedupe-by', 'email', '--no-update'];
    const r = await ws([...keep, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.deepEqual(
      [summary.created, summary.updated, summary.unchanged, summary.update_existing],
      [1, 0, 1, false],
    );
    assert.deepEqual(
      contacts().map((c) => c['name']),
      ['Old', 'B'],
    );
    // Again (new options, so new keys): both rows now match.
    const human = await ws([...keep, '--case-insensitive']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /created +0\n/);
    assert.match(human.stderr, /existing, left unchanged +2\n/);
    // Without --no-update the match is patched, as before.
    const patched = await ws(['import', 'contact', path, '--dedupe-by', 'email', '--json']);
    assert.equal(JSON.parse(patched.stdout).update_existing, true);
    assert.equal(JSON.parse(patched.stdout).updated, 1);
    assert.deepEqual(
      contacts().map((c) => c['name']),
      ['New name', 'B'],
    );
  });

  it('without --dedupe-by it is a usage error', async () => {
    const r = await ws(['import', 'contact', NEW_VALUES, '--no-update']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--no-update applies to --dedupe-by/);
  });
});
