import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandContext } from '../../src/command.ts';
import { buildProgram, NOUNS, nounsFor } from '../../src/root.ts';
import { testIO } from '../helpers/io.ts';

const ctx: CommandContext = {
  async invoke() {
    throw new Error('no verb runs in these tests');
  },
};

/** The top-level names and aliases a program has registered. */
const namesOf = (program: Awaited<ReturnType<typeof buildProgram>>) =>
  program.commands.flatMap((c) => [c.name(), ...c.aliases()]).filter((n) => n !== 'help');

describe('the command tree, loaded noun by noun', () => {
  it('lists, for each noun, exactly the names and aliases its registration adds', async () => {
    const whole = await buildProgram(ctx, testIO().io);
    assert.deepEqual(
      namesOf(whole).sort(),
      NOUNS.flatMap((n) => n.names).sort(),
      'a top-level command or alias is missing from NOUNS (or NOUNS names one that is gone)',
    );
    for (const noun of NOUNS) {
      const program = await buildProgram(ctx, testIO().io, [noun.names[0]!]);
      assert.deepEqual(namesOf(program).sort(), [...noun.names].sort(), noun.names[0]);
    }
  });

  it('registers the noun argv names, skipping global flags and their values', async () => {
    const program = await buildProgram(ctx, testIO().io);
    const pick = (argv: string[]) =>
      nounsFor(program, argv)
        .map((n) => n.names[0])
        .join(',');
    const all = NOUNS.map((n) => n.names[0]).join(',');
    assert.equal(pick(['records', 'list', 'contact']), 'records');
    assert.equal(pick(['record', 'get']), 'records');
    assert.equal(pick(['whoami']), 'auth');
    assert.equal(pick(['--profile', 'views', '--json', 'props', 'list']), 'props');
    assert.equal(pick(['--format', 'json', '--fields', 'a,b', 'import', 'x.csv']), 'import');
    assert.equal(pick(['--profile=prod', '-q', 'sandbox', 'status']), 'sandbox');
    assert.equal(pick(['--timeout', '5', '--retries', '1', 'api', 'GET', '/']), 'api');
    assert.equal(pick(['--version']), '');
    assert.equal(pick(['-V']), '');
    // Whatever may print the root's help or suggest a command gets the whole tree.
    assert.equal(pick([]), all);
    assert.equal(pick(['--json']), all);
    assert.equal(pick(['--help']), all);
    assert.equal(pick(['-h', 'records']), all);
    assert.equal(pick(['--version', '--help']), all);
    assert.equal(pick(['help', 'records']), all);
    assert.equal(pick(['recrods', 'list']), all);
    // The completion scripts do not need the tree (ws __complete builds what it needs).
    assert.equal(pick(['completion', 'bash']), 'completion');
    assert.equal(pick(['--', 'records']), all);
  });
});
