// ws records batch-update TYPE --file F|-: patch many records, 100 per call, from CSV
// (an id column, then property slugs), NDJSON, or a JSON array. --dry-run reads the
// records and says what would change (batch-plan.ts).
import { bulkRecordType } from '../../api/object-types.ts';
import { batchUpdateRecords } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { readInput } from '../common/input.ts';
import { type BatchFlags, runBatch } from './batch.ts';
import { checkDryRun, planUpdates, readCurrent, reportPlan } from './batch-plan.ts';
import { definitions } from './shared.ts';
import { detectFormat, type ItemsFormat, parseUpdateItems } from './update-items.ts';

export interface BatchUpdateOptions extends BatchFlags {
  type: string;
  file?: string | undefined;
  inputFormat?: ItemsFormat | undefined;
  /** Read the records and say what would change; send nothing. */
  dryRun?: boolean | undefined;
}

export async function run(opts: BatchUpdateOptions, deps: Deps): Promise<void> {
  const type = bulkRecordType(opts.type, 'batch update');
  checkDryRun(opts);
  if (opts.file === undefined) {
    throw new UsageError(
      'batch-update needs --file F (or --file - for stdin).',
      'CSV with an id column and property slugs as headers, NDJSON, or a JSON array of {"id": …, slug: value}.',
    );
  }
  const input = await readInput(opts.file, deps, '--file');
  const format = opts.inputFormat ?? detectFormat(input.text, input.path);
  const defs = await definitions(deps, type);
  const items = await parseUpdateItems(input.text, input.source, format, defs, type);
  if (items.length === 0) {
    deps.io.info(`No items in ${input.source}; nothing was updated.`);
    return;
  }
  if (opts.dryRun) {
    const slugs = [...new Set(items.flatMap((item) => Object.keys(item.default ?? {})))];
    const ids = items.map((item) => item.id);
    const current = await readCurrent(await deps.client(), type, ids, slugs, deps.signal);
    await reportPlan(deps, type, 'update', planUpdates(items, current));
    return;
  }
  await runBatch(
    { type, verb: 'update', items, idOf: (item) => item.id, call: batchUpdateRecords },
    opts,
    deps,
  );
}
