// `ws version` as a verb (what `ws --version` prints), and a mistyped --version suggested.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('ws version', () => {
  it('prints the version as --version does; --json with the Node.js and platform', async () => {
    const flag = await runWs(['--version']);
    const verb = await runWs(['version']);
    assert.equal(verb.code, 0, verb.stderr);
    assert.equal(verb.stdout, `${VERSION}\n`);
    assert.equal(verb.stdout, flag.stdout);
    const json = await runWs(['version', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), {
      version: VERSION,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
    });
    const one = await runWs(['version', '--fields', 'node']);
    assert.equal(one.stdout, `${process.versions.node}\n`);
  });

  it('ws --versoin suggests --version; a verb does not get the root flag suggested', async () => {
    const r = await runWs(['--versoin']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /Unknown option '--versoin'\nDid you mean --version\? See `ws --help`\./,
    );
    const sub = await runWs(['records', 'list', 'contacts', '--versoin']);
    assert.equal(sub.code, 2);
    assert.doesNotMatch(sub.stderr, /--version/);
  });
});
