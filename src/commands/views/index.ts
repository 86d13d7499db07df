// `ws views …`: the flags of each verb, read into its options.
import { type Command, type CommandContext, Option, settleVerbs } from '../../command.ts';
import { describeArguments } from '../common/args.ts';
import { collect, type Flags } from '../common/flags.ts';
import { pageFlags, pageOptions } from '../common/list-flags.ts';
import { nounOf } from '../common/verb-spec.ts';
import { VIEW_KINDS } from './kinds.ts';

const verbs = () => import('./verbs.ts');

const WHERE_HELP = `
Filters (--where, repeatable; entries combine with AND, or OR with --or):
  SLUG OP VALUE       OP: = != < > <= >=  ~ contains  !~ not contains
                          ^= begins with  $= ends with
  SLUG:OPERATOR=VALUE any operator by name: eq ne lt gt lte gte contains not_contains
                      begins_with ends_with between in not_in
  SLUG:is_null        also is_not_null, exists, not_exists (add =false to negate)
  between, in and not_in take comma-separated values; write a comma inside a value
  as \\, or put the value in "double quotes". Quote a value to keep its spaces or to
  mean the text "true". Select values may be option slugs or display names.
  --filter-json takes the API's array as is; with --where too, its entries come first.
  Quote expressions in a shell: --where 'amount>=1000'.`;

/** The flags create and update share: what the view shows. */
function specFlags(cmd: Command, verb: 'create' | 'update'): Command {
  const replaced = verb === 'update' ? ' (replaces the whole list)' : '';
  return cmd
    .addOption(
      new Option('--type <kind>', `view type${verb === 'create' ? ' (default grid)' : ''}`).choices(
        VIEW_KINDS as unknown as string[],
      ),
    )
    .option(
      '--select <slugs>',
      `comma-separated property slugs to show; dot-paths follow references${replaced}`,
    )
    .option(
      '--where <expr>',
      `a filter, e.g. amount>=1000 (repeatable)${verb === 'update' ? '; replaces the whole filter' : ''}`,
      collect,
    )
    .option(
      '--filter-json <json>',
      `the filter as the API's JSON array${verb === 'update' ? '; replaces the whole filter' : ''}`,
    )
    .option(
      '--or',
      `combine the filter entries with OR${verb === 'create' ? ' (default AND)' : ''}`,
    )
    .option(
      '--sort <slugs>',
      `comma-separated slugs, - for descending, e.g. -amount,name${replaced}`,
    )
    .option('--group-by <slug>', 'property to group by (kanban columns)')
    .option('--group-hide-empty', 'hide groups without records')
    .option('--no-group-hide-empty', 'show groups without records')
    .option('--list-id <uuid>', 'the list the view belongs to')
    .option('--icon <icon>', 'icon of the view');
}

function specOptions(f: Flags) {
  return {
    viewType: f.string('--type'),
    select: f.string('--select'),
    where: f.list('--where'),
    filterJson: f.string('--filter-json'),
    or: f.boolean('--or'),
    sort: f.string('--sort'),
    groupBy: f.string('--group-by'),
    groupHideEmpty: f.toggle('--group-hide-empty'),
    listId: f.string('--list-id'),
    icon: f.string('--icon'),
  };
}

export function register(program: Command, ctx: CommandContext): void {
  const { noun: views, define } = nounOf(program, ctx, verbs, ['views', 'view'], {
    description: 'Saved views of an object type: what they show, and their records',
    examples: [
      'ws views create deal --name "Big deals" --select name,amount --where \'amount>=10000\'',
      'ws views show deal "Big deals"',
    ],
  });

  define(['create <type>'], {
    description: 'Create a view',
    flags: (cmd) =>
      specFlags(
        cmd.option('--name <name>', 'name of the view (asked on a terminal when missing)'),
        'create',
      ),
    help: WHERE_HELP,
    examples: [
      `ws views create deal --name "Big deals" --select name,amount,stage --where 'amount>=10000' --sort -amount`,
      'ws views create deal --name Pipeline --type kanban --group-by stage --select name,amount',
      `ws views create deal --name "Won or Acme" --where stage:in=won,lost --where 'name~"Acme, Inc"' --or`,
    ],
    run: 'createVerb',
    options: ([type], f) => ({ type, name: f.string('--name'), ...specOptions(f) }),
  });

  define(['list <type>', 'ls'], {
    description: 'List the views of an object type (a sandbox extension of the API)',
    flags: (cmd) => cmd.option('--list-id <uuid>', 'only the views of this list'),
    help: `\nColumns: id, name, view_type, group_by, updated_at; --fields adds select, filter,\ncombinator, sort, group_hide_empty, list_id, created_at.\nThe documented API has no listing; a service without it is explained (exit 1).`,
    examples: ['ws views list deal', 'ws views list deal --fields id,name --json'],
    run: 'listVerb',
    options: ([type], f) => ({ type, listId: f.string('--list-id') }),
  });

  define(['get <type> <view>'], {
    description: 'Show a view: what it selects, filters, sorts and groups by',
    examples: [
      'ws views get deal "Big deals"',
      'ws views get deal 6f1c2a9e-1111-4222-8333-944455556666 --json',
    ],
    run: 'getVerb',
    options: ([type, view]) => ({ type, view }),
  });

  define(['update <type> <view>'], {
    description: 'Change a view; --select, --where/--filter-json and --sort replace the whole list',
    flags: (cmd) =>
      specFlags(
        cmd
          .option('--name <name>', 'new name')
          .option('--and', 'combine the filter entries with AND')
          .option('--clear-filter', 'remove every filter entry')
          .option('--clear-sort', 'remove the sort')
          .option('--clear-group-by', 'stop grouping'),
        'update',
      ),
    help: `
--select, --where/--filter-json and --sort each replace the view's whole list, as the
API does: give every entry the view should keep. A new filter combines with AND unless
--or; --or or --and alone changes only how the existing filter combines.
${WHERE_HELP}`,
    examples: [
      `ws views update deal 6f1c…  --name "Bigger deals" --where 'amount>=50000'`,
      'ws views update deal Pipeline --select name,amount,owner --clear-sort',
    ],
    run: 'updateVerb',
    options: ([type, view], f) => ({
      type,
      view,
      name: f.string('--name'),
      ...specOptions(f),
      and: f.boolean('--and'),
      clearFilter: f.boolean('--clear-filter'),
      clearSort: f.boolean('--clear-sort'),
      clearGroupBy: f.boolean('--clear-group-by'),
    }),
  });

  define(['show <type> <view>'], {
    description: "Run a view: its records as a table of the view's columns",
    flags: (cmd) => pageFlags(cmd, { one: 'record', many: 'records' }, 50),
    help: `
A kanban view is shown one group after another (in the order of the options of its
group_by property), each with its count. --json prints { view, records, has_more, groups }.`,
    examples: [
      'ws views show deal Pipeline',
      'ws views show deal "Big deals" --all --format csv > big-deals.csv',
      'ws views show deal "Big deals" --limit 200 --json',
    ],
    run: 'showVerb',
    options: ([type, view], f) => ({ type, view, ...pageOptions(f) }),
  });

  define(['records <type> <view>'], {
    description:
      "A view's records from its records endpoint: pinned ones first, then the view's sort",
    flags: (cmd) => pageFlags(cmd, { one: 'record', many: 'records' }, 50),
    help: `
Columns: the view's select, then pinned. --json gives the API's rows with "pinned" added.
Pin records with ws views pin; ws views show reads the view with include=records instead.`,
    examples: [
      'ws views records deal "Big deals"',
      'ws views records deal "Big deals" --all --format ndjson',
    ],
    run: 'recordsVerb',
    options: ([type, view], f) => ({ type, view, ...pageOptions(f) }),
  });

  const pins = [
    ['pin', 'Pin records to the top of a view, in the order given (after those pinned already)'],
    ['unpin', 'Unpin records from a view'],
    ['reorder', 'Put pinned records first in the order given; the other pinned ones follow'],
  ] as const;
  for (const [action, description] of pins) {
    define([`${action} <type> <view> <ids...>`], {
      description,
      examples: [
        `ws views ${action} deal "Big deals" 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a`,
        ...(action === 'unpin' ? [] : [`ws views ${action} deal Pipeline ID1 ID2 --json`]),
      ],
      run: 'pinsVerb',
      options: ([type, view, ...ids]) => ({ action, type, view, ids }),
    });
  }

  define(['delete <type> <view>', 'rm'], {
    description: 'Delete a view (asks first; --yes to skip; a sandbox extension of the API)',
    examples: ['ws views delete deal "Big deals"', 'ws views delete deal "Big deals" --yes --json'],
    run: 'deleteVerb',
    options: ([type, view]) => ({ type, view }),
  });

  settleVerbs(views);
  describeArguments(views, 'view');
}
