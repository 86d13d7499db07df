// Shell completion in zsh, at a real terminal (completion-shells.ts says how).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CASES,
  FIXTURES,
  homeDir,
  install,
  missing,
  RECORD_TYPES,
  setUpShells,
  sh,
} from './completion-shells.ts';

setUpShells();

describe('completion in zsh', { skip: missing('zsh') }, () => {
  /** Type the line in an interactive zsh set up by `setup`, press Tab, read the matches. */
  function complete(setup: string, line: string): string[] {
    const file = join(homeDir(), 'setup.zsh');
    writeFileSync(file, `${setup}\nsource ${join(FIXTURES, 'zsh-hooks.zsh')}\n`);
    const r = sh('zsh', ['-f', join(FIXTURES, 'zsh-capture.zsh'), file, line]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').filter((l) => l !== '');
  }
  const compinit = () => `autoload -Uz compinit && compinit -u -d ${join(homeDir(), '.zcompdump')}`;

  it('offers commands, object types, flag values, slugs, options, profiles, views and files', () => {
    for (const [line, offered] of CASES) {
      const got = complete(`${compinit()}\nsource <(ws completion zsh)`, line);
      // zsh, too, writes a space in a value as "\ ".
      const expected = offered.map((o) => o.replace(/ /g, '\\ '));
      assert.deepEqual(got.sort(), expected.sort(), line);
    }
  });

  it('works installed on $fpath, as docs/completion.md says', () => {
    install('zsh', 'mkdir -p ~/.zfunc && ws completion zsh > ~/.zfunc/_ws');
    const got = complete(`fpath=(~/.zfunc $fpath)\n${compinit()}`, 'ws records list ');
    assert.deepEqual(got.sort(), RECORD_TYPES);
  });
});
