// Shell completion, driven through the real shells: bash (its completion function called
// as bash calls it, with COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT), zsh (an
// interactive zsh in a pseudo-terminal, Tab pressed, matches read back) and fish
// (`complete -C`). The built ws answers from a config directory whose definitions cache
// was filled by real commands against a sandbox. Installed as the README says.
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

const RECORD_TYPES = ['action', 'contact', 'deal', 'document', 'identity', 'organization'];

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
  ['ws records list ', ['contact', 'organization', 'identity', 'deal', 'action', 'document']],
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

/** The words bash would make of a line (its word breaks: `=` and `:` split, kept as words). */
function bashWords(line: string): string[] {
  const words = line.split(/\s+/).flatMap((w) => w.split(/([=:])/).filter((p) => p !== ''));
  if (/\s$/.test(line) || line.endsWith('=') || line.endsWith(':')) words.push('');
  return words;
}

describe('completion in bash', { skip: missing('bash') }, () => {
  /** Install as the README says, then complete each line through the function `complete -p ws` names. */
  function complete(install: string, lines: readonly string[]): string[][] {
    const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const script = [
      install,
      'fn=$(complete -p ws | sed -E "s/.* -F ([^ ]+) .*/\\1/")',
      ...lines.map((line) => {
        const words = bashWords(line);
        return [
          `COMP_LINE=${q(line)}; COMP_POINT=\${#COMP_LINE}`,
          `COMP_WORDS=(${words.map(q).join(' ')}); COMP_CWORD=${words.length - 1}`,
          `COMPREPLY=(); "$fn" ws "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"`,
          `printf "%s\\n" "\${COMPREPLY[@]}"; echo ---`,
        ].join('\n');
      }),
    ].join('\n');
    const r = sh('bash', ['--norc', '--noprofile', '-c', script]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    return r.stdout
      .split('---\n')
      .slice(0, lines.length)
      .map((block) => block.split('\n').filter((l) => l !== ''));
  }

  it('offers commands, object types, flag values, slugs, options, profiles, views and files', () => {
    const got = complete(
      'source <(ws completion bash)',
      CASES.map(([line]) => line),
    );
    CASES.forEach(([line, offered], i) => {
      // bash replaces only the part after its last word break (= or :) with the value.
      const cut = line
        .split(/\s/)
        .at(-1)!
        .replace(/^.*[=:]/, '');
      const expected = offered.map((o) => {
        const word = line.split(/\s/).at(-1)!;
        return (
          word.includes('=') || word.includes(':') ? o.slice(word.length - cut.length) : o
        ).replace(/ /g, '\\ ');
      });
      assert.deepEqual(got[i]!.sort(), expected.sort(), line);
    });
  });

  it("works installed in bash-completion's directory, as the README says", () => {
    install(
      'bash',
      'mkdir -p ~/.local/share/bash-completion/completions && ws completion bash > ~/.local/share/bash-completion/completions/ws',
    );
    const [types] = complete('source ~/.local/share/bash-completion/completions/ws', [
      'ws records list ',
    ]);
    assert.deepEqual(types!.sort(), RECORD_TYPES);
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
  /** Complete each line in fish (`load` run first; user config read only without one). */
  function complete(lines: readonly string[], load?: string): string[][] {
    const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    const script = [load ?? '', ...lines.map((l) => `complete -C ${q(l)}; echo ---`)].join('\n');
    const r = sh('fish', [...(load ? ['--no-config'] : []), '-c', script]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout
      .split('---\n')
      .slice(0, lines.length)
      .map((block) =>
        block
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => l.split('\t')[0]!),
      );
  }

  it('offers commands, object types, flag values, slugs, options, profiles, views and files', () => {
    const got = complete(
      CASES.map(([line]) => line),
      'ws completion fish | source',
    );
    CASES.forEach(([line, offered], i) => {
      assert.deepEqual(got[i]!.sort(), [...offered].sort(), line);
    });
  });

  it('works installed in ~/.config/fish/completions, as the README says', () => {
    install(
      'fish',
      'mkdir -p ~/.config/fish/completions && ws completion fish > ~/.config/fish/completions/ws.fish',
    );
    const [types] = complete(['ws records list ']);
    assert.deepEqual(types!.sort(), RECORD_TYPES);
  });
});
