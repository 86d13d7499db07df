// `ws lists …`: lists of records made from a template (their stage property and views come
// with them). Each verb's flags, read into its options.
import { type Command, type CommandContext, Option, settleVerbs } from '../../command.ts';
import { describeArguments } from '../common/args.ts';
import { flags } from '../common/flags.ts';
import { nounOf } from '../common/verb-spec.ts';

const verbs = () => import('./verbs.ts');

const TEMPLATES_HELP = `
Templates (the object type of their records): sales_deals (deal), recruiting (contact),
partnerships (organization), fundraising (organization), knowledge_base (document),
issue_tracker (action), content_calendar (document), job_applications (organization),
project_tracker (action), feedback (contact), portco_tracker (organization),
deal_flow (organization), lp_fundraising (contact), custom (--object-type).
A list gets its stage property (alias app_stage) and two views: a board by stage and a grid.
Records join a list with --data '{…}' list values, or ws import --list-id.`;

export function register(program: Command, ctx: CommandContext): void {
  const { noun: lists, define } = nounOf(program, ctx, verbs, ['lists', 'list'], {
    description: 'Lists of records made from a template: create, list, get',
    examples: [
      'ws lists create --template sales_deals --name "Q3 pipeline"',
      'ws lists list',
      'ws lists get "Q3 pipeline"',
    ],
  });

  define(['create'], {
    description: 'Create a list from a template, with its stage property and views',
    flags: (cmd) =>
      cmd
        .addOption(
          new Option('--template <template>', 'the template (asked on a terminal when missing)'),
        )
        .option('--name <name>', "the list's name (default: the template's)")
        .option('--object-type <type>', 'the object type of its records (custom lists only)'),
    help: TEMPLATES_HELP,
    examples: [
      'ws lists create --template sales_deals --name "Q3 pipeline"',
      'ws lists create --template custom --object-type contact --name "Beta testers" --json',
    ],
    run: 'createVerb',
    options: (_, f, cmd) => ({
      // ws's global --template (a Liquid template for the output) takes the flag wherever it
      // is written; here it is the list's template (main.ts drops the global meaning for a
      // verb that has a --template of its own).
      template: f.string('--template') ?? flags(cmd.optsWithGlobals()).string('--template'),
      name: f.string('--name'),
      objectType: f.string('--object-type'),
    }),
  });

  define(['list', 'ls'], {
    description: 'List the lists (every page)',
    help: '\nColumns: id, name, template_id, object_type, created_at; --fields adds stage_property_id, updated_at.',
    examples: ['ws lists list', 'ws lists list --fields id,name --json'],
    run: 'listVerb',
  });

  define(['get <list>'], {
    description: 'Show a list and its views',
    examples: [
      'ws lists get "Q3 pipeline"',
      'ws lists get 6f1c2a9e-1111-4222-8333-944455556666 --json',
    ],
    run: 'getVerb',
    options: ([list]) => ({ list }),
  });

  settleVerbs(lists);
  describeArguments(lists, undefined, { list: 'a list, by id or by name' });
}
