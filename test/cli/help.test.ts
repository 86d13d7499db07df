// Help for every command, and what ws says when argv is wrong: examples and inherited flags
// everywhere, a noun alone prints its help, and mistakes get the close command or flag.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import type { CommandContext } from '../../src/command.ts';
import { buildProgram } from '../../src/root.ts';
import { testIO } from '../helpers/io.ts';
import { assertUsageErrors } from '../helpers/parse.ts';
import { runWs } from '../helpers/run.ts';

const ctx: CommandContext = {
  async invoke() {
    throw new Error('no verb runs in these tests');
  },
};

/** Every command of the tree as argv (`['records', 'list']`), the root's `help` left out. */
function paths(cmd: Command, above: string[] = []): string[][] {
  const out: string[][] = [];
  for (const sub of cmd.commands) {
    if (sub.name() === 'help') continue;
    const path = [...above, sub.name()];
    out.push(path, ...paths(sub, path));
  }
  return out;
}

describe('help', () => {
  it('every command has an Examples section and lists the global flags as inherited flags', async () => {
    const program = await buildProgram(ctx, testIO().io);
    const globals = program.options
      .filter((o) => o.long !== '--version')
      .map((o) => o.flags.replace(/ <.*/, ''));
    assert.ok(globals.includes('--profile') && globals.includes('-q, --quiet'));
    const all = paths(program);
    assert.ok(all.length > 50, `${all.length} commands`);
    for (const path of all) {
      const r = await runWs([...path, '--help']);
      const name = `ws ${path.join(' ')}`;
      assert.equal(r.code, 0, name);
      assert.equal(r.stderr, '', name);
      assert.match(r.stdout, new RegExp(`^Usage: ${name}[ |]`), name);
      assert.match(r.stdout, /\nExamples:\n {2}\$ /, `${name}: Examples`);
      const inherited = r.stdout.split('\nInherited flags:\n')[1];
      assert.ok(inherited, `${name}: Inherited flags`);
      for (const flag of globals)
        assert.ok(inherited.includes(`  ${flag}`), `${name}: inherited ${flag}`);
      assert.doesNotMatch(inherited, /--version/, name);
      // The examples run the noun they document.
      const lines = r.stdout.split('\nExamples:\n')[1]!.split('\n');
      assert.ok(
        lines.some((l) => l.startsWith('  $ ') && l.includes(`ws ${path[0]}`)),
        `${name}: an example runs it`,
      );
    }
  });

  it('the root lists the global flags under Flags, and its usage says [flags]', async () => {
    const r = await runWs(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: ws \[flags\] \[command\]\n/);
    assert.match(r.stdout, /\nFlags:\n {2}-V, --version/);
    assert.doesNotMatch(r.stdout, /Inherited flags/);
  });

  it('a noun without a verb prints its help on stdout and exits 0, as ws alone does', async () => {
    for (const argv of [[], ['records'], ['props'], ['props', 'options'], ['records', 'grant']]) {
      const r = await runWs(argv);
      assert.equal(r.code, 0, argv.join(' '));
      assert.equal(r.stderr, '', argv.join(' '));
      assert.match(r.stdout, new RegExp(`^Usage: ${['ws', ...argv].join(' ')}[ |]`));
      assert.match(r.stdout, /\nCommands:\n/);
    }
  });

  it('an argument left out says what it is: a missing object type lists the types', async () => {
    await assertUsageErrors([
      [
        ['records', 'list'],
        /^error: Missing TYPE: `ws records list` needs an object type: contact, organization, identity, deal, action, document, event or engagement \(singular or plural\)\.\nUsage: ws records list \[flags\] <type>\. See `ws records list --help`\.\n$/,
      ],
      [
        ['views', 'show'],
        /needs an object type: action, deal, document, event, identity, organization, comment or engagement/,
      ],
      [['props', 'list', 'contact', 'x'], /^error: Too many arguments for 'list'/],
      [
        ['records', 'get', 'contact'],
        /^error: Missing ID: `ws records get` needs a record id \(a UUID\)\./,
      ],
      [
        ['records', 'grant', 'get'],
        /needs deal, action, document, event, engagement, identity or message \(singular or plural\)/,
      ],
      [['profile', 'use'], /^error: Missing NAME: `ws profile use` needs a profile name\./],
    ]);
  });

  it('an unknown verb suggests the closest one (an alias counting as its command)', async () => {
    await assertUsageErrors([
      [
        ['records', 'lst'],
        /^error: Unknown command 'lst' for `ws records`\nDid you mean `ws records list`\?\n$/,
      ],
      [['recrods'], /^error: Unknown command 'recrods'\nDid you mean `ws records`\?\n$/],
      [['props', 'options', 'rmove'], /Did you mean `ws props options remove`\?/],
      [
        ['views', 'zzzzzz'],
        /^error: Unknown command 'zzzzzz' for `ws views`\nCommands: create, list, get, update, show, records, pin, unpin, reorder, delete\. See `ws views --help`\.\n$/,
      ],
    ]);
  });

  it('an unknown flag suggests the close ones; an unknown short flag, the flags with its letter', async () => {
    await assertUsageErrors([
      [
        ['records', 'list', 'contacts', '--wher', 'x'],
        /^error: Unknown option '--wher'\nDid you mean --where\? See `ws records list --help`\.\n$/,
      ],
      [
        ['records', 'list', 'contacts', '-l', '5'],
        /^error: Unknown option '-l'\nDid you mean --limit or --list-id\? See `ws records list --help`\.\n$/,
      ],
      [['records', 'get', 'contact', 'x', '-s', 'name'], /Did you mean --select\?/],
      [['profile', 'list', '-z'], /^error: Unknown option '-z'\nSee `ws profile list --help`\.\n$/],
    ]);
  });

  it('each short flag means one long flag across the whole tool', async () => {
    const program = await buildProgram(ctx, testIO().io);
    const meaning = new Map<string, { long: string; where: string }>();
    const walk = (cmd: Command, name: string) => {
      for (const o of cmd.options) {
        // Hidden flags (the old -f of `ws api`, kept with a warning) are not offered.
        if (!o.short || !o.long || o.hidden) continue;
        const seen = meaning.get(o.short);
        if (seen)
          assert.equal(
            o.long,
            seen.long,
            `${o.short}: ${seen.long} in ${seen.where}, ${o.long} in ${name}`,
          );
        else meaning.set(o.short, { long: o.long, where: name });
      }
      for (const sub of cmd.commands) walk(sub, `${name} ${sub.name()}`);
    };
    walk(program, 'ws');
    assert.equal(meaning.get('-f')?.long, '--file');
    assert.equal(meaning.get('-F')?.long, '--field');
    assert.equal(meaning.get('-o')?.long, '--output');
  });

  it('other parse errors name the command whose help to read', async () => {
    await assertUsageErrors([
      [
        ['props', 'diff'],
        /^error: Required option '-f, --file <file>' not specified\nSee `ws props diff --help`\.\n$/,
      ],
      [
        ['records', 'list', 'contacts', '--format', 'xml'],
        /argument 'xml' is invalid.*\nSee `ws --help`\.\n$/,
      ],
    ]);
  });

  it('ws help NOUN VERB shows that verb; an unknown word is a usage error naming it', async () => {
    const verb = await runWs(['help', 'records', 'list']);
    assert.equal(verb.code, 0);
    assert.equal(verb.stderr, '');
    assert.equal(verb.stdout, (await runWs(['records', 'list', '--help'])).stdout);
    assert.match(verb.stdout, /^Usage: ws records list\|ls \[flags\] <type>\n/);
    const alias = await runWs(['help', 'record', 'ls']);
    assert.equal(alias.stdout, verb.stdout);
    await assertUsageErrors([
      [
        ['help', 'nope'],
        /^error: Unknown command 'nope'\nCommands: profile, .*; help topics: environment, formatting, exit-codes, filters\. See `ws --help`\.\n$/,
      ],
      [
        ['help', 'recrods', 'list'],
        /^error: Unknown command 'recrods'\nDid you mean `ws records`\?\n$/,
      ],
      [
        ['help', 'envirnoment'],
        /^error: Unknown command 'envirnoment'\nDid you mean `ws help environment`\?\n$/,
      ],
      [
        ['help', 'records', 'lst'],
        /^error: Unknown command 'lst' for `ws records`\nDid you mean `ws records list`\?\n$/,
      ],
    ]);
  });

  it('ws help TOPIC prints the topic: environment, formatting, exit-codes, filters', async () => {
    const expected: Record<string, RegExp> = {
      environment: /WS_API_KEY .*\n[\s\S]*WS_CONFIG_DIR[\s\S]*HTTPS_PROXY/,
      formatting: /--format tsv[\s\S]*--fields a,b[\s\S]*--jq EXPR[\s\S]*tablerow[\s\S]*hyperlink/,
      'exit-codes': /^Exit codes\n[\s\S]*\n {2}130 {2}interrupted/,
      filters: /stage:in=won,lost[\s\S]*organization\.name\^=Ac/,
    };
    for (const [topic, text] of Object.entries(expected)) {
      const r = await runWs(['help', topic]);
      assert.equal(r.code, 0, topic);
      assert.equal(r.stderr, '', topic);
      assert.match(r.stdout, text, topic);
    }
    const root = await runWs(['--help']);
    assert.match(
      root.stdout,
      /Help topics: ws help environment \| formatting \| exit-codes \| filters/,
    );
  });
});
