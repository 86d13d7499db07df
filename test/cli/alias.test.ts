// ws alias: set, list and delete, stored with the profiles (config.json, 0600), expanded
// before parsing (with $1…$9 and the words after the alias), and never in a command's place.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import { sandboxProfile, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let s: TestSandbox;
let config: string;
const ws = (argv: string[]) => runWs(argv, { env: s.env });
const stored = () =>
  JSON.parse(readFileSync(config, 'utf8')) as {
    profiles: Record<string, unknown>;
    aliases?: Record<string, string>;
  };

before(async () => {
  s = await startTestSandbox({ seed: 'demo' });
  config = join(s.configDir, 'config.json');
});
after(() => s.stop());
beforeEach(() => {
  writeFileSync(
    config,
    JSON.stringify({ profiles: { sandbox: sandboxProfile(s) }, default_profile: 'sandbox' }),
    { mode: 0o600 },
  );
});

describe('ws alias', () => {
  it('set stores it with the profiles; the alias runs the command it stands for', async () => {
    const set = await ws([
      'alias',
      'set',
      'won',
      'records list deals --where stage=won --sort -amount --fields name,amount',
    ]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stderr, /Added alias won: `ws won` runs `ws records list deals/);
    assert.deepEqual(stored().aliases, {
      won: 'records list deals --where stage=won --sort -amount --fields name,amount',
    });
    assert.ok(stored().profiles.sandbox, 'the profiles are kept');
    assert.equal(statSync(config).mode & 0o777, 0o600);
    const direct = await ws([
      'records',
      'list',
      'deals',
      '--where',
      'stage=won',
      '--sort',
      '-amount',
      '--fields',
      'name,amount',
      '--limit',
      '3',
    ]);
    const viaAlias = await ws(['won', '--limit', '3']);
    assert.equal(viaAlias.code, 0, viaAlias.stderr);
    assert.equal(viaAlias.stdout, direct.stdout);
    assert.notEqual(viaAlias.stdout, '');
    // Global flags may come first.
    const json = await ws(['--json', 'won', '--limit', '1']);
    assert.equal(JSON.parse(json.stdout).length, 1);
  });

  it('$1 … $9 take the words after the alias, the rest follow; too few is exit 2', async () => {
    assert.equal(
      (await ws(['alias', 'set', 'over', 'records count deals --where "amount>=$1"'])).code,
      0,
    );
    const expected = await ws(['records', 'count', 'deals', '--where', 'amount>=50000']);
    const r = await ws(['over', '50000']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, expected.stdout);
    const rest = await ws(['over', '50000', '--json']);
    assert.deepEqual(JSON.parse(rest.stdout), { total: Number(expected.stdout) });
    const none = await ws(['over']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /The alias over takes 1 argument \(\$1\); none was given\./);
    // The words of an expansion given after -- are kept as they are.
    const words = await ws([
      'alias',
      'set',
      'names',
      '--',
      'records',
      'list',
      'contacts',
      '--fields',
      'name',
    ]);
    assert.equal(words.code, 0, words.stderr);
    assert.equal(stored().aliases?.names, 'records list contacts --fields name');
  });

  it('a command always wins: refused at set, and an alias of that name is not expanded', async () => {
    const taken = await ws(['alias', 'set', 'records', 'records list contacts']);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /"records" is a ws command: an alias of that name would never run/);
    for (const name of ['version', 'alias', 'help', 'whoami']) {
      assert.equal((await ws(['alias', 'set', name, 'records list contacts'])).code, 2, name);
    }
    // An alias stored under a command's name (a later ws added the command) stays unused.
    const data = stored();
    writeFileSync(config, JSON.stringify({ ...data, aliases: { version: 'records list deals' } }));
    const version = await ws(['version']);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    const list = await ws(['alias', 'list', '--json']);
    assert.deepEqual(JSON.parse(list.stdout), [
      { name: 'version', expansion: 'records list deals', shadowed: true },
    ]);
    const table = await runWs(['alias', 'list'], { env: s.env, tty: true });
    assert.match(table.stdout, /version +records list deals {2}\(never used: a ws command\)/);
  });

  it('refuses what would not run: no ws command first, a leading ws, shell operators', async () => {
    const cases: [string, RegExp][] = [
      ['recrods list', /"recrods" is not a ws command\.\nDid you mean "records"/],
      ['ws records list', /Leave out the leading "ws"/],
      ['records list contacts | head', /holds the shell operator \|/],
      ['', /the expansion is empty/],
    ];
    for (const [expansion, message] of cases) {
      const r = await ws(['alias', 'set', 'x', expansion]);
      assert.equal(r.code, 2, expansion);
      assert.match(r.stderr, message);
    }
    assert.equal((await ws(['alias', 'set', '-x', 'records list'])).code, 2);
    assert.equal(stored().aliases, undefined);
  });

  it('replacing needs --clobber; list and delete', async () => {
    assert.equal((await ws(['alias', 'set', 'c', 'records list contacts'])).code, 0);
    const again = await ws(['alias', 'set', 'c', 'records list deals']);
    assert.equal(again.code, 6);
    assert.match(again.stderr, /The alias c exists: it stands for `ws records list contacts`/);
    const clobber = await ws(['alias', 'set', 'c', 'records list deals', '--clobber']);
    assert.equal(clobber.code, 0, clobber.stderr);
    assert.equal((await ws(['alias', 'set', 'a', 'auth status'])).code, 0);
    const list = await ws(['alias', 'list']);
    assert.equal(list.stdout, 'a\tauth status\nc\trecords list deals\n');
    const del = await ws(['alias', 'delete', 'c']);
    assert.equal(del.code, 0);
    assert.match(del.stderr, /Deleted alias c \(it stood for `ws records list deals`\)/);
    const missing = await ws(['alias', 'rm', 'c']);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /No alias named "c"\.\nAliases: a\./);
    assert.deepEqual(stored().aliases, { a: 'auth status' });
    const unknown = await ws(['nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command 'nope'/);
  });
});
