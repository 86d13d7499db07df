import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandContext } from '../../src/command.ts';
import { buildProgram, NOUNS, nounsFor, verbWordFor } from '../../src/root.ts';
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

  it('names the verb argv gives its noun, past flags and their values', async () => {
    const program = await buildProgram(ctx, testIO().io);
    const word = (argv: string[]) => verbWordFor(program, argv);
    assert.equal(word(['records', 'list', 'contact']), 'list');
    assert.equal(word(['--profile', 'x', 'record', '--json', 'ls']), 'ls');
    assert.equal(word(['records', '--format', 'json', 'get', 'contact', 'ID']), 'get');
    // No verb, help before it, or no noun: every verb may be shown.
    assert.equal(word(['records']), undefined);
    assert.equal(word(['records', '--help', 'list']), undefined);
    assert.equal(word(['records', '-h']), undefined);
    assert.equal(word(['help', 'records']), undefined);
    assert.equal(word(['recrods', 'list']), undefined);
    assert.equal(word(['records', '--', 'list']), undefined);
  });

  it("defines only the verb argv names; every verb when it names none of its noun's", async () => {
    const verbsOf = async (argv: string[]) => {
      const program = await buildProgram(ctx, testIO().io, argv);
      const records = program.commands.find((c) => c.name() === 'records')!;
      return records.commands.map((c) => c.name());
    };
    const every = await verbsOf(['records']);
    assert.ok(every.length >= 15, every.join(' '));
    assert.deepEqual(await verbsOf(['records', 'list', 'contact']), ['list']);
    assert.deepEqual(await verbsOf(['records', 'ls', 'contact']), ['list']);
    assert.deepEqual(await verbsOf(['record', 'grant', 'get', 'deal', 'ID']), ['grant']);
    // A typo, help, or completion of a partial word: all of them, in their order.
    for (const argv of [
      ['records', 'lst'],
      ['records', 'help', 'list'],
      ['records', '--help'],
      ['records', 'li'],
    ])
      assert.deepEqual(await verbsOf(argv), every, argv.join(' '));
    // Every noun settles its verbs: a verb it does not have gets all of them defined.
    for (const noun of NOUNS) {
      const name = noun.names[0]!;
      const verbs = async (argv: string[]) =>
        (await buildProgram(ctx, testIO().io, argv)).commands
          .find((c) => c.name() === name)!
          .commands.map((c) => c.name());
      assert.deepEqual(await verbs([name, 'zzz']), await verbs([name]), name);
    }
    // The one verb defined is the whole verb: its flags and help are those of the whole tree.
    const whole = await buildProgram(ctx, testIO().io);
    const one = await buildProgram(ctx, testIO().io, ['records', 'list', 'contact']);
    const list = (p: typeof whole) =>
      p.commands.find((c) => c.name() === 'records')!.commands.find((c) => c.name() === 'list')!;
    assert.equal(list(one).helpInformation(), list(whole).helpInformation());
  });
});
