import { objectType } from '../../api/object-types.ts';
import { listAllProperties, listProperties } from '../../api/props.ts';
import type { Deps } from '../../factory.ts';
import { renderRows } from '../../output/render.ts';
import { unknownPropertyType } from '../../schema/definitions.ts';
import { storeDefinitions } from '../../schema/definitions-cache.ts';
import { type PropertyRow, propertyColumns, propertyRow } from './shared.ts';

export interface ListOptions {
  /** One object type, or every type when undefined. */
  objectType?: string | undefined;
  term?: string | undefined;
  listId?: string | undefined;
  /** Show option values instead of their number. */
  options: boolean;
}

/**
 * Always asks the API (a listing is what the user wants to see now) and, without --term,
 * refreshes the definitions cache with the answer.
 */
export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const type = opts.objectType === undefined ? undefined : objectType(opts.objectType, 'property');
  const client = await deps.client();
  const q = { listId: opts.listId, term: opts.term, signal: deps.signal };
  const byType = new Map(
    type === undefined
      ? await listAllProperties(client, q)
      : [
          [
            type,
            await listProperties(client, type, q).catch((err: unknown) => {
              throw unknownPropertyType(type, err);
            }),
          ],
        ],
  );
  if (opts.term === undefined) await storeDefinitions(deps, byType, { listId: opts.listId });
  const rows: PropertyRow[] = [];
  for (const [t, defs] of byType) for (const d of defs) rows.push(propertyRow(t, d));
  const what = type === undefined ? 'properties' : `${type} properties`;
  await renderRows(
    deps.io,
    rows,
    propertyColumns({ showType: type === undefined, optionValues: opts.options }),
    {
      format: deps.format,
      fields: deps.fields,
      emptyMessage: opts.term === undefined ? `No ${what}.` : `No ${what} match "${opts.term}".`,
    },
  );
}
