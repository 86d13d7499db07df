// `ws auth status` and `ws whoami`.
import { type Command, type CommandContext, settleVerbs } from '../../command.ts';
import { nounOf, verbsOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

export function register(program: Command, ctx: CommandContext): void {
  const { noun: auth, define } = nounOf(program, ctx, verbs, ['auth'], {
    description: 'Check authentication',
    examples: ['ws auth status'],
  });
  define(['status'], {
    description:
      'Check the API key with one request and show the profile, base URL, team id and key in use',
    examples: [
      'ws auth status',
      'ws auth status --profile prod --json',
      'WS_API_KEY=… ws auth status',
    ],
    run: 'statusVerb',
  });
  settleVerbs(auth);
  const defineCommand = verbsOf(program, ctx, verbs);
  defineCommand(['whoami'], {
    description: 'Same as `ws auth status`',
    examples: ['ws whoami', 'ws whoami --json'],
    run: 'statusVerb',
  });
}
