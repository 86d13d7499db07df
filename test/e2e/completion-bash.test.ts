// Shell completion in bash, at a real terminal (completion-shells.ts says how).
import { describe, it } from 'node:test';
import {
  afterBreak,
  assertOffersAtTerminal,
  bashrc,
  CASES,
  install,
  missing,
  RECORD_TYPES,
  setUpShells,
} from './completion-shells.ts';

setUpShells();

describe('completion in bash', { skip: missing('bash') }, () => {
  it('offers commands, object types, flag values, slugs, options, profiles, views and files', async () => {
    await assertOffersAtTerminal(
      ['bash', '--noprofile', '--rcfile', bashrc('source <(ws completion bash)'), '-i'],
      ['C-u'],
      CASES,
      afterBreak,
    );
  });

  it("works installed in bash-completion's directory, as docs/completion.md says", async () => {
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
