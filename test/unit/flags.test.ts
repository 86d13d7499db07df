// The flag readers every noun shares (src/commands/common/): commander's option values in,
// typed values out, a bad value a usage error that names the flag; and the page, filter and
// --since flags defined once for the nouns that list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { collect, flags, givenArgs, intFlag } from '../../src/commands/common/flags.ts';
import {
  pageFlags,
  pageOptions,
  parseSince,
  sinceFlag,
  sinceOption,
  sinceTime,
  whereFlags,
  whereOptions,
} from '../../src/commands/common/list-flags.ts';
import { UsageError } from '../../src/errors.ts';

/** Parse argv with a command that has these flags; the option values its action would get. */
function parsed(define: (cmd: Command) => Command, argv: string[]) {
  const cmd = define(new Command('t').exitOverride());
  cmd.parse(argv, { from: 'user' });
  return { cmd, f: flags(cmd.opts()) };
}

function usage(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof UsageError && message.test(err.message));
}

describe('flag readers', () => {
  const define = (cmd: Command) =>
    cmd
      .option('--list-id <id>', '')
      .option('--or', '')
      .option('--icon <icon>', '')
      .option('--no-icon', '')
      .option('--required', '')
      .option('--no-required', '')
      .option('--set <kv>', '', collect, [])
      .option('--limit <n>', '')
      .option('--format <f>', '');

  it('reads each kind by the flag as written', () => {
    const { f } = parsed(define, [
      '--list-id',
      'L',
      '--or',
      '--no-icon',
      '--no-required',
      '--set',
      'a=1',
      '--set',
      'b=2',
      '--limit',
      '20',
      '--format',
      'csv',
    ]);
    assert.equal(f.string('--list-id'), 'L');
    assert.equal(f.boolean('--or'), true);
    assert.equal(f.clearable('--icon'), null);
    assert.equal(f.toggle('--required'), false);
    assert.deepEqual(f.list('--set'), ['a=1', 'b=2']);
    assert.equal(f.integer('--limit', 1), 20);
    assert.equal(f.choice('--format', ['csv', 'tsv'] as const), 'csv');
  });

  it('reads flags not given as absent: undefined, false or an empty list', () => {
    const { f } = parsed(define, []);
    assert.equal(f.string('--list-id'), undefined);
    assert.equal(f.boolean('--or'), false);
    assert.equal(f.clearable('--icon'), undefined);
    assert.equal(f.toggle('--required'), undefined);
    assert.deepEqual(f.list('--set'), []);
    assert.equal(f.integer('--limit', 1), undefined);
    assert.equal(f.given('--set'), false);
  });

  it('a value for a clearable flag, and the positive side of a toggle', () => {
    const { f } = parsed(define, ['--icon', 'star', '--required']);
    assert.equal(f.clearable('--icon'), 'star');
    assert.equal(f.toggle('--required'), true);
  });

  it('a whole number out of range is a usage error naming the flag', () => {
    usage(
      () => parsed(define, ['--limit', '0']).f.integer('--limit', 1),
      /--limit takes a whole number at least 1, not "0"/,
    );
    usage(
      () => intFlag('--port', '70000', 0, 65535),
      /--port takes a whole number from 0 to 65535, not "70000"/,
    );
    usage(() => intFlag('--limit', '2.5', 1), /not "2.5"/);
  });

  it('exclusive: both flags given is a usage error; one is fine', () => {
    const both = parsed(define, ['--or', '--limit', '3']).f;
    usage(() => both.exclusive('--or', '--limit'), /^--or and --limit cannot be used together\.$/);
    parsed(define, ['--or']).f.exclusive('--or', '--limit');
  });

  it('givenArgs: the options typed on the command line, to give them again', () => {
    const { cmd } = parsed(
      (c) => define(c).option('--resume', '').option('--port <n>', '', '4800'),
      ['--set', 'a=1', '--no-icon', '--set', "it's", '--or', '--resume'],
    );
    // In the order the flags are defined; --port's default was not typed, --resume is left out.
    assert.deepEqual(givenArgs(cmd, ['--resume']), [
      '--or',
      '--no-icon',
      '--set',
      'a=1',
      '--set',
      "it's",
    ]);
  });
});

describe('page, filter and --since flags', () => {
  const RECORDS = { one: 'record', many: 'records' };

  it('--limit and --all: read, and refused together', () => {
    const define = (cmd: Command) => pageFlags(cmd, RECORDS, 50);
    assert.deepEqual(pageOptions(parsed(define, ['--limit', '120']).f), { limit: 120, all: false });
    assert.deepEqual(pageOptions(parsed(define, ['--all']).f), { limit: undefined, all: true });
    usage(
      () => pageOptions(parsed(define, ['--all', '--limit', '3']).f),
      /--all and --limit cannot be used together/,
    );
    usage(
      () => pageOptions(parsed(define, ['--limit', 'ten']).f),
      /--limit takes a whole number at least 1/,
    );
    const help = define(new Command('t')).helpInformation();
    assert.match(
      help,
      /--limit <n> +how many records, however many pages that takes \(default 50\)/,
    );
    assert.match(help, /--all +every record, page after page/);
  });

  it('--where (repeatable), --or and --filter-json', () => {
    const define = (cmd: Command) => whereFlags(cmd);
    assert.deepEqual(whereOptions(parsed(define, []).f), {
      where: [],
      or: false,
      filterJson: undefined,
    });
    assert.deepEqual(
      whereOptions(
        parsed(define, ['--where', 'a=1', '--where', 'b>2', '--or', '--filter-json', '[]']).f,
      ),
      { where: ['a=1', 'b>2'], or: true, filterJson: '[]' },
    );
  });

  it('--since: a duration back from the command clock, or a point in time', () => {
    const define = (cmd: Command) => sinceFlag(cmd, { one: 'delivery', many: 'deliveries' });
    const now = new Date('2026-04-01T12:00:00Z');
    const at = (v: string) => sinceTime(sinceOption(parsed(define, ['--since', v]).f)!, now);
    assert.equal(sinceOption(parsed(define, []).f), undefined);
    assert.equal(at('30m'), '2026-04-01T11:30:00.000Z');
    assert.equal(at('2h'), '2026-04-01T10:00:00.000Z');
    assert.equal(at('7d'), '2026-03-25T12:00:00.000Z');
    assert.equal(at('1w'), '2026-03-25T12:00:00.000Z');
    assert.equal(at('1h30m'), '2026-04-01T10:30:00.000Z');
    assert.equal(at('90s'), '2026-04-01T11:58:30.000Z');
    assert.equal(at('2026-03-31'), '2026-03-31T00:00:00.000Z');
    assert.equal(at('2026-03-31T09:30:00Z'), '2026-03-31T09:30:00.000Z');
    assert.equal(at('2026-03-31T09:30:00.250+02:00'), '2026-03-31T07:30:00.250Z');
    assert.equal(at('2026-03-31T09:30'), new Date(2026, 2, 31, 9, 30).toISOString());
    assert.match(
      define(new Command('t')).helpInformation(),
      /--since <when> +only deliveries since then/,
    );
  });

  it('--since: anything else is a usage error before anything runs', () => {
    for (const v of [
      '',
      'yesterday',
      '0m',
      '1.5h',
      '-1h',
      '2026-02-30',
      '2026-13-01',
      '2026-03-31T24:00Z',
      '31/03/2026',
    ])
      usage(
        () => parseSince('--since', v),
        new RegExp(
          `--since takes a duration or an ISO-8601 time, not "${v.replace(/[.+]/g, '\\$&')}"`,
        ),
      );
  });
});
