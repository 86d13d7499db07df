// Questions to a person. Only asked where one can answer (see IOStreams.canPrompt);
// @inquirer/prompts loads only when a question is actually asked.
import { InterruptedError, UsageError, WsError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(opts: {
    message: string;
    default?: string;
    validate?: (v: string) => true | string;
  }): Promise<string>;
  password(opts: { message: string; validate?: (v: string) => true | string }): Promise<string>;
  confirm(opts: { message: string; default?: boolean }): Promise<boolean>;
  select<T>(opts: { message: string; choices: Choice<T>[]; default?: T }): Promise<T>;
}

function interrupted(err: unknown): never {
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
    throw new InterruptedError('Cancelled.');
  }
  throw err;
}

/** Prompts on the terminal: questions go to stderr so stdout stays data. */
export function terminalPrompter(io: IOStreams): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  return {
    async input(opts) {
      const { input } = await import('@inquirer/prompts');
      return input(opts, context()).catch(interrupted);
    },
    async password(opts) {
      const { password } = await import('@inquirer/prompts');
      return password({ ...opts, mask: '*' }, context()).catch(interrupted);
    },
    async confirm(opts) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm(opts, context()).catch(interrupted);
    },
    async select<T>(opts: { message: string; choices: Choice<T>[]; default?: T }) {
      const { select } = await import('@inquirer/prompts');
      return (select as (o: unknown, c: unknown) => Promise<T>)(
        { ...opts, pageSize: 12 },
        context(),
      ).catch(interrupted);
    },
  };
}

/**
 * A prompter that counts the time spent waiting for answers, so that a command can time
 * its work and not the person's reading and typing (`ws import`'s rate and duration).
 */
export function timedPrompter(prompter: Prompter): { prompter: Prompter; waitedMs(): number } {
  let waited = 0;
  const timed =
    <A extends unknown[], R>(ask: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const from = performance.now();
      try {
        return await ask(...args);
      } finally {
        waited += performance.now() - from;
      }
    };
  return {
    prompter: {
      input: timed((o) => prompter.input(o)),
      password: timed((o) => prompter.password(o)),
      confirm: timed((o) => prompter.confirm(o)),
      select: timed((o) => prompter.select(o)) as Prompter['select'],
    },
    waitedMs: () => waited,
  };
}

/**
 * Ask for confirmation of something destructive: --yes answers it; a person is asked;
 * otherwise it is refused (exit 2) and nothing happens.
 */
export async function confirmOrRefuse(
  io: IOStreams,
  prompter: Prompter,
  question: string,
  refusal: string,
): Promise<void> {
  if (io.yes) return;
  if (io.isStdinTTY && io.isStdoutTTY && !io.noInput) {
    const ok = await prompter.confirm({ message: question, default: false });
    if (!ok) throw new WsError('Cancelled: nothing was changed.', { code: 'cancelled' });
    return;
  }
  throw new UsageError(refusal, 'Pass --yes to confirm without a prompt.');
}
