// Shell completion in fish, at a real terminal (completion-shells.ts says how).
import { describe, it } from 'node:test';
import {
  assertOffersAtTerminal,
  CASES,
  install,
  missing,
  RECORD_TYPES,
  setUpShells,
} from './completion-shells.ts';

setUpShells();

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

  it('works installed in ~/.config/fish/completions, as docs/completion.md says', async () => {
    install(
      'fish',
      'mkdir -p ~/.config/fish/completions && ws completion fish > ~/.config/fish/completions/ws.fish',
    );
    // fish reads the user's configuration, and so finds the file by itself.
    await fish('true', [['ws records list ', RECORD_TYPES]], true);
  });
});
