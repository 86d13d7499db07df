// `ws lists create --template T [--name N] [--object-type TYPE]`: a list from a template,
// with the stage property and the views the template makes. On a terminal a missing
// --template is asked for; otherwise it is a usage error naming the flag.
import { createList, type ListCreate, type ListTemplate } from '../../api/lists.ts';
import { objectType, type RecordType } from '../../api/object-types.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { renderObject } from '../../output/render.ts';
import { LIST_TEMPLATES, listColumns } from './shared.ts';

export interface CreateOptions {
  template?: string | undefined;
  name?: string | undefined;
  objectType?: string | undefined;
}

async function template(opts: CreateOptions, deps: Deps): Promise<ListTemplate> {
  if (opts.template !== undefined) {
    const given = opts.template.trim().toLowerCase().replace(/-/g, '_');
    if ((LIST_TEMPLATES as readonly string[]).includes(given)) return given as ListTemplate;
    throw new UsageError(
      `Unknown list template "${opts.template}".`,
      `Templates: ${LIST_TEMPLATES.join(', ')}.`,
    );
  }
  if (!deps.io.canPrompt()) {
    throw new UsageError(
      'A list is made from a template: pass --template.',
      `Templates: ${LIST_TEMPLATES.join(', ')}; e.g. ws lists create --template sales_deals --name "Q3 pipeline".`,
    );
  }
  return deps.prompter.select({
    message: 'Template of the new list',
    choices: LIST_TEMPLATES.map((t) => ({ name: t, value: t })),
  });
}

export async function run(opts: CreateOptions, deps: Deps): Promise<void> {
  if (opts.name !== undefined && opts.name.trim() === '') {
    throw new UsageError('--name cannot be empty (leave it out for the template’s own name).');
  }
  const type =
    opts.objectType === undefined
      ? undefined
      : (objectType(opts.objectType, 'record') as RecordType);
  const templateId = await template(opts, deps);
  if (templateId === 'custom' && type === undefined) {
    throw new UsageError(
      'A custom list needs --object-type: the object type of its records.',
      'e.g. ws lists create --template custom --object-type contact --name "Beta testers".',
    );
  }
  const body: ListCreate = {
    template_id: templateId,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(type !== undefined ? { object_type: type } : {}),
  };
  const client = await deps.client();
  const list = await createList(client, body, { signal: deps.signal });
  deps.io.success(
    `Created ${list.object_type} list "${list.name}" (${list.id}) with ${list.views.length} views.`,
  );
  await renderObject(deps.io, list, listColumns(false), {
    format: deps.format,
    fields: deps.fields,
  });
}
