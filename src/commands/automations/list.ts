// `ws automations list TYPE`: the automations of an object type, one line each.
import type { AutomationKind } from '../../api/automations.ts';
import { listAutomations } from '../../api/automations.ts';
import { paginate } from '../../api/paginate.ts';
import { type Names, NO_NAMES } from '../../automations-as-code/render.ts';
import type { Deps } from '../../factory.ts';
import { createRowWriter } from '../../output/render.ts';
import type { PageOptions } from '../common/list-flags.ts';
import { automationListColumns, automationType, namesFor } from './shared.ts';

function hasWebhookStep(a: { actions?: readonly { type: string }[] | null }): boolean {
  return (a.actions ?? []).some((x) => x.type === 'webhook');
}

export interface ListOptions extends PageOptions {
  type: string;
  kind: AutomationKind | undefined;
  listId: string | undefined;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  const client = await deps.client();
  // Webhooks are read (once) when a row names one: a deleted one shows as such.
  let names: Names | undefined;
  const writer = createRowWriter(
    deps.io,
    automationListColumns(() => names ?? NO_NAMES),
    {
      format: deps.format,
      fields: deps.fields,
      emptyMessage: `No ${type} automations${opts.kind ? ` of kind ${opts.kind}` : ''}${opts.listId ? ` on list ${opts.listId}` : ''}. Create one with \`ws automations create ${type} --name NAME …\`.`,
    },
  );
  const pages = paginate(
    (cursor, limit) =>
      listAutomations(client, type, {
        kind: opts.kind,
        listId: opts.listId,
        cursor,
        limit,
        signal: deps.signal,
      }),
    { limit: opts.limit, all: opts.all },
  );
  for await (const page of pages) {
    const machine = deps.format === 'json' || deps.format === 'ndjson';
    if (names === undefined && !machine && page.rows.some((a) => hasWebhookStep(a))) {
      names = await namesFor(deps, page.rows);
    }
    await writer.write(page.rows);
  }
  await writer.end();
}
