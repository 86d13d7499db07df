// `ws automations list TYPE`: the automations of an object type, one line each.
import type { AutomationKind } from '../../api/automations.ts';
import { listAutomations } from '../../api/automations.ts';
import { paginate } from '../../api/paginate.ts';
import type { Deps } from '../../factory.ts';
import { createRowWriter } from '../../output/render.ts';
import type { PageOptions } from '../common/list-flags.ts';
import { automationListColumns, automationType } from './shared.ts';

export interface ListOptions extends PageOptions {
  type: string;
  kind: AutomationKind | undefined;
  listId: string | undefined;
}

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  const client = await deps.client();
  const writer = createRowWriter(deps.io, automationListColumns(), {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: `No ${type} automations${opts.kind ? ` of kind ${opts.kind}` : ''}${opts.listId ? ` on list ${opts.listId}` : ''}. Create one with \`ws automations create ${type} --name NAME …\`.`,
  });
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
  for await (const page of pages) await writer.write(page.rows);
  await writer.end();
}
