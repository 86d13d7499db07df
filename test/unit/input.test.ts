// Reading what a flag names (src/commands/common/input.ts): inline text, @FILE or - for
// stdin, as JSON or as JSON or YAML; every failure a usage error naming the flag.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readInput, readJsonArg, readJsonOrYamlArg } from '../../src/commands/common/input.ts';
import { UsageError } from '../../src/errors.ts';
import type { Deps } from '../../src/factory.ts';
import { testIO } from '../helpers/io.ts';

const dir = mkdtempSync(join(tmpdir(), 'ws-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What these readers use of the dependencies: stdin, and whether it is a terminal. */
function deps(stdin?: string, stdinTTY = false): Deps {
  return { io: testIO({ ...(stdin !== undefined ? { stdin } : {}), stdinTTY }).io } as Deps;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function usage(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof UsageError && message.test(err.message));
}

describe('reading a flag argument', () => {
  it('JSON inline, from @FILE and from stdin', async () => {
    assert.deepEqual(await readJsonArg('{"a":1}', deps(), '--data'), { a: 1 });
    assert.deepEqual(await readJsonArg(`@${file('a.json', '[1,2]')}`, deps(), '--data'), [1, 2]);
    assert.deepEqual(await readJsonArg('-', deps('{"b":true}'), '--data'), { b: true });
  });

  it('JSON that does not parse names its source', async () => {
    await usage(readJsonArg('{a:1}', deps(), '--data'), /^--data is not valid JSON: /);
    const path = file('bad.json', 'nope');
    await usage(
      readJsonArg(`@${path}`, deps(), '--body'),
      new RegExp(`^--body ${path} is not valid JSON`),
    );
    await usage(readJsonArg('-', deps('nope'), '--data'), /^--data \(stdin\) is not valid JSON/);
  });

  it('JSON or YAML: either, inline or from a file', async () => {
    assert.deepEqual(await readJsonOrYamlArg('{"name":"Ada"}', deps(), '--data'), { name: 'Ada' });
    const yaml = file('a.yaml', 'name: Ada\nkind: update\nsteps:\n  - wait: 1h\n');
    assert.deepEqual(await readJsonOrYamlArg(`@${yaml}`, deps(), '--file'), {
      name: 'Ada',
      kind: 'update',
      steps: [{ wait: '1h' }],
    });
    assert.deepEqual(await readJsonOrYamlArg('-', deps('a: [1, 2]\n'), '--data'), { a: [1, 2] });
    await usage(
      readJsonOrYamlArg('a: [1, 2', deps(), '--data'),
      /^--data is neither JSON nor valid YAML: /,
    );
  });

  it('a missing file, a directory, and - when stdin is a terminal', async () => {
    await usage(
      readInput(join(dir, 'none.csv'), deps(), '--file'),
      /^Cannot read --file .*none\.csv: no such file\.$/,
    );
    await usage(readInput(dir, deps(), '--file'), /: it is a directory\.$/);
    await usage(
      readInput('-', deps(undefined, true), '--file'),
      /^--file - reads stdin, and stdin is a terminal\.$/,
    );
  });
});
