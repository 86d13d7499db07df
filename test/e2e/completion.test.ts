// Shell completion, driven through the real shells at a terminal: an interactive bash and
// fish run in a tmux pane, and an interactive zsh in a pseudo-terminal of its own (zpty);
// a line is typed, Tab pressed, and what the shell then shows (the line completed, or the
// matches it lists) is read back. The built ws answers from a config directory whose
// definitions cache was filled by real commands against a sandbox. Installed as the README
// says. A shell that is not installed has its tests skipped, with the reason printed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs } from '../helpers/run.ts';
import {
  sandboxProfile,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { Terminal } from '../tty/terminal.ts';

const BIN = new URL('../../bin/ws.js', import.meta.url).pathname;
const FIXTURES = new URL('../fixtures/completion/', import.meta.url).pathname;

let t: TestSandbox;
let home: string;
let work: string;
let env: Record<string, string>;

/** The path of a shell, or undefined (the test is then skipped, saying why). */
function which(shell: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${shell}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
const missing = (shell: string) =>
  which(shell) ? false : `${shell} is not installed (.ci/run installs it with apt-get)`;

function sh(shell: string, args: string[], input = '') {
  const r = spawnSync(shell, args, {
    cwd: work,
    env,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.error, undefined, String(r.error));
  return r;
}

before(async () => {
  t = await startTestSandbox();
  home = mkdtempSync(join(tmpdir(), 'ws-completion-'));
  work = join(home, 'work');
  const bin = join(home, 'bin');
  mkdirSync(work);
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'ws'));
  writeFileSync(join(work, 'schema.yaml'), 'version: 1\n');
  writeFileSync(join(work, 'people.csv'), 'name\n');
  writeProfiles(
    t.configDir,
    {
      sandbox: sandboxProfile(t),
      prod: { base_url: 'https://api.example.com', team_id: t.sandbox.teamId },
    },
    'sandbox',
  );
  // What a user's earlier commands leave in the cache: contact definitions, deal views.
  for (const argv of [
    ['props', 'list', 'contacts'],
    ['views', 'create', 'deal', '--name', 'Big deals', '--where', 'amount>=10000'],
    ['views', 'list', 'deal'],
  ]) {
    const r = await runWs(argv, { env: t.env });
    assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
  }
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    WS_CONFIG_DIR: t.configDir,
    TERM: 'dumb',
    LANG: 'C.UTF-8',
  };
});
after(async () => {
  rmSync(home, { recursive: true, force: true });
  await t.stop();
});

const RECORD_TYPES = [
  'action',
  'contact',
  'deal',
  'document',
  'engagement',
  'event',
  'identity',
  'organization',
];

/** Run the README's install line for a shell (a fresh HOME: no directory exists yet). */
function install(shell: string, line: string): void {
  const r = sh(shell, [
    shell === 'bash' ? '--norc' : shell === 'zsh' ? '-f' : '--no-config',
    '-c',
    line,
  ]);
  assert.equal(r.status, 0, r.stderr);
}

/** What each line offers, the same in every shell (bash writes a space in a value as "\ "). */
const CASES: [line: string, offered: string[]][] = [
  [
    'ws records list ',
    ['contact', 'organization', 'identity', 'deal', 'action', 'document', 'event', 'engagement'],
  ],
  [
    'ws records watch ',
    ['contact', 'organization', 'identity', 'deal', 'action', 'document', 'event', 'engagement'],
  ],
  ['ws records grant get mes', ['message']],
  ['ws records list contacts --format ', ['table', 'tsv', 'json', 'ndjson', 'csv']],
  ['ws records li', ['list']],
  ['ws records list contacts --wh', ['--where']],
  ['ws records list contacts --fields name,em', ['name,email']],
  ['ws records list contacts --where sta', ['status']],
  [
    'ws records list contacts --where status=',
    ['status=lead', 'status=customer', 'status=churned'],
  ],
  ['ws --profile ', ['prod', 'sandbox']],
  ['ws props get contact subs', ['subscribed']],
  ['ws props options update contact status ', ['lead', 'customer', 'churned']],
  ['ws views show deal B', ['Big deals']],
  ['ws props diff -f sch', ['schema.yaml']],
  ['ws completion ', ['bash', 'zsh', 'fish']],
];

/** What bash shows for a value: the part after the last `=` or `:` of the word. */
function afterBreak(line: string, value: string): string {
  const word = line.split(/\s/).at(-1)!;
  const cut = word.replace(/^.*[=:]/, '');
  return value.slice(word.length - cut.length);
}

/**
 * An interactive shell in a terminal (tmux), set up by its start-up file: a line is typed,
 * Tab pressed, and the screen read back. Either the line was completed in place (one
 * match: `line` is the prompt's line after Tab) or the shell listed the matches below the
 * prompt (`listed`, one a line in bash; in columns, descriptions in brackets, in fish).
 */
class ShellAtTerminal {
  private readonly term = new Terminal({ columns: 200, rows: 50 }, {});
  /** `cancel`: the keys that close what Tab opened and empty the line. */
  constructor(
    private readonly argv: string[],
    private readonly cancel: string[],
  ) {}

  async start(): Promise<void> {
    // A terminal tmux emulates, not the dumb one the other tests use.
    await this.term.startProgram(this.argv, { ...env, TERM: 'screen' }, work);
    await this.term.waitFor(/^\$$/m, 30_000);
  }

  async tab(line: string): Promise<{ line: string; listed: string[] }> {
    await this.term.keys('C-l');
    await this.term.waitFor(/^\$$/, 10_000);
    await this.term.type(line);
    const typed = await this.term.waitFor(new RegExp(`^\\$ ${escapeRegExp(line.trimEnd())}$`));
    await this.term.keys('Tab');
    // ws __complete answers, then the shell redraws: wait for a change that holds.
    let screen = typed;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 250));
      const now = await this.term.screen();
      if (now !== typed && now === screen) break;
      screen = now;
    }
    for (const key of this.cancel) await this.term.keys(key);
    // The prompt's lines start with "$" (bash lists under the old prompt, then prints a new
    // one; fish lists under the prompt); the others are the matches.
    const lines = screen.split('\n').filter((l) => l.trim() !== '');
    const prompts = lines.filter((l) => l.startsWith('$'));
    return {
      line: prompts.at(-1)!.replace(/^\$ ?/, '').trimEnd(),
      listed: lines
        .filter((l) => !l.startsWith('$'))
        .flatMap((l) => l.trim().split(/\s{2,}/))
        .filter((v) => !/^\(.*\)$/.test(v)),
    };
  }

  async close(): Promise<void> {
    await this.term.close();
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Press Tab after each line and check what the shell shows: one match completes the line
 * (a space in it written "\ "), several are listed as `shown` displays each.
 */
async function assertOffers(
  shell: ShellAtTerminal,
  cases: readonly (readonly [string, readonly string[]])[],
  shown: (line: string, value: string) => string,
): Promise<void> {
  for (const [line, offered] of cases) {
    const got = await shell.tab(line);
    if (offered.length === 1) {
      const word = line.split(/\s/).at(-1)!;
      const done = shown(line, offered[0]!).replace(/ /g, '\\ ');
      const start = line.length - shown(line, word).length;
      assert.equal(got.line, `${line.slice(0, start)}${done}`, line);
      assert.deepEqual(got.listed, [], line);
    } else {
      assert.equal(got.line, line.trimEnd(), line);
      assert.deepEqual([...got.listed].sort(), offered.map((o) => shown(line, o)).sort(), line);
    }
  }
}

/** Start the shell of `argv` at a terminal, check each case there, then close it. */
async function assertOffersAtTerminal(
  argv: string[],
  cancel: string[],
  cases: readonly (readonly [string, readonly string[]])[],
  shown: (line: string, value: string) => string,
): Promise<void> {
  const shell = new ShellAtTerminal(argv, cancel);
  try {
    await shell.start();
    await assertOffers(shell, cases, shown);
  } finally {
    await shell.close();
  }
}

/** A bash start-up file: a plain prompt, matches listed at the first Tab, one a line. */
function bashrc(load: string): string {
  const file = join(home, 'bashrc');
  writeFileSync(
    file,
    [
      "PS1='$ '",
      "bind 'set show-all-if-ambiguous on'",
      "bind 'set completion-display-width 0'",
      "bind 'set completion-query-items 0'",
      "bind 'set page-completions off'",
      "bind 'set bell-style none'",
      load,
      '',
    ].join('\n'),
  );
  return file;
}

describe('completion in bash', { skip: missing('bash') }, () => {
  it('offers commands, object types, flag values, slugs, options, profiles, views and files', async () => {
    await assertOffersAtTerminal(
      ['bash', '--noprofile', '--rcfile', bashrc('source <(ws completion bash)'), '-i'],
      ['C-u'],
      CASES,
      afterBreak,
    );
  });

  it("works installed in bash-completion's directory, as the README says", async () => {
    install(
      'bash',
      'mkdir -p ~/.local/share/bash-completion/completions && ws completion bash > ~/.local/share/bash-completion/completions/ws',
    );
    await assertOffersAtTerminal(
      [
        'bash',
        '--noprofile',
        '--rcfile',
        bashrc('source ~/.local/share/bash-completion/completions/ws'),
        '-i',
      ],
      ['C-u'],
      [['ws records list ', RECORD_TYPES]],
      afterBreak,
    );
  });
});

describe('completion in zsh', { skip: missing('zsh') }, () => {
  /** Type the line in an interactive zsh set up by `setup`, press Tab, read the matches. */
  function complete(setup: string, line: string): string[] {
    const file = join(home, 'setup.zsh');
    writeFileSync(file, `${setup}\nsource ${join(FIXTURES, 'zsh-hooks.zsh')}\n`);
    const r = sh('zsh', ['-f', join(FIXTURES, 'zsh-capture.zsh'), file, line]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').filter((l) => l !== '');
  }
  const compinit = () => `autoload -Uz compinit && compinit -u -d ${join(home, '.zcompdump')}`;

  it('offers commands, object types, flag values, slugs, options, profiles, views and files', () => {
    for (const [line, offered] of CASES) {
      const got = complete(`${compinit()}\nsource <(ws completion zsh)`, line);
      // zsh, too, writes a space in a value as "\ ".
      const expected = offered.map((o) => o.replace(/ /g, '\\ '));
      assert.deepEqual(got.sort(), expected.sort(), line);
    }
  });

  it('works installed on $fpath, as the README says', () => {
    install('zsh', 'mkdir -p ~/.zfunc && ws completion zsh > ~/.zfunc/_ws');
    const got = complete(`fpath=(~/.zfunc $fpath)\n${compinit()}`, 'ws records list ');
    assert.deepEqual(got.sort(), RECORD_TYPES);
  });
});

describe('completion in fish', { skip: missing('fish') }, () => {
  /** Check the cases in an interactive fish with a plain prompt, no autosuggestions, after `load`. */
  const fish = (
    load: string,
    cases: readonly (readonly [string, readonly string[]])[],
    config = false,
  ) =>
    assertOffersAtTerminal(
      [
        'fish',
        ...(config ? [] : ['--no-config']),
        '-i',
        '-C',
        [
          'function fish_prompt; echo -n "\\$ "; end',
          'function fish_greeting; end',
          'set -g fish_autosuggestion_enabled 0',
          load,
        ].join('; '),
      ],
      ['Escape', 'C-u'],
      cases,
      (_line, value) => value,
    );

  it('offers commands, object types, flag values, slugs, options, profiles, views and files', async () => {
    await fish('ws completion fish | source', CASES);
  });

  it('works installed in ~/.config/fish/completions, as the README says', async () => {
    install(
      'fish',
      'mkdir -p ~/.config/fish/completions && ws completion fish > ~/.config/fish/completions/ws.fish',
    );
    // fish reads the user's configuration, and so finds the file by itself.
    await fish('true', [['ws records list ', RECORD_TYPES]], true);
  });
});
