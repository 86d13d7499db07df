// `ws views pin|unpin|reorder TYPE VIEW ID…`: the records a view shows first. pin adds each
// record to the end of the view's pinned records (one request each, in the order given),
// unpin takes each out, reorder puts the ids given first (the other pinned records follow
// in their order; one request). pin and reorder print the view as `ws views get` does, its
// pinned records (record_order) included; unpin, whose answer is empty, says what it did.
import { pinViewRecord, reorderViewRecords, unpinViewRecord, type View } from '../../api/views.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { renderObject } from '../../output/render.ts';
import { recordId } from '../common/record-args.ts';
import { resolveView, viewColumns, viewObjectType } from './shared.ts';

export interface PinsOptions {
  action: 'pin' | 'unpin' | 'reorder';
  type: string;
  /** A view id, or a view name (looked up in the listing). */
  view: string;
  /** Record ids, in order. */
  ids: string[];
}

export async function run(opts: PinsOptions, deps: Deps): Promise<void> {
  const type = viewObjectType(opts.type);
  const ids = opts.ids.map((id) => recordId(id));
  if (ids.length === 0) {
    throw new UsageError(
      `ws views ${opts.action} needs at least one record id.`,
      `For example: ws views ${opts.action} ${type} VIEW 7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a`,
    );
  }
  if (new Set(ids).size !== ids.length) {
    throw new UsageError(`A record id is given twice: give each record once.`);
  }
  const client = await deps.client();
  const { id } = await resolveView(deps, client, type, opts.view);
  const signal = deps.signal;
  let view: View | undefined;
  if (opts.action === 'pin') {
    for (const recordId of ids) view = await pinViewRecord(client, type, id, recordId, { signal });
    deps.io.success(
      `Pinned ${plural(ids.length, `${type} record`)} to view "${view!.name}" (${view!.record_order?.length ?? ids.length} pinned in all).`,
    );
  } else if (opts.action === 'reorder') {
    view = await reorderViewRecords(client, type, id, ids, { signal });
    deps.io.success(`Reordered the pinned records of view "${view.name}".`);
  } else {
    for (const recordId of ids) await unpinViewRecord(client, type, id, recordId, { signal });
    deps.io.success(`Unpinned ${plural(ids.length, `${type} record`)} from view ${opts.view}.`);
    if (deps.format === 'json' || deps.format === 'ndjson')
      deps.io.println(JSON.stringify({ view_id: id, unpinned: ids }));
    return;
  }
  await renderObject(deps.io, view!, viewColumns, { format: deps.format, fields: deps.fields });
}
