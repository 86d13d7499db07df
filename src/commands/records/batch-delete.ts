// ws records batch-delete TYPE [IDS…] [--file F|-]: soft-delete many records, 100 per
// call. Asks first on a terminal; needs --yes otherwise. --dry-run reads the records and
// says which would be deleted (batch-plan.ts), and needs no confirmation.
import { bulkRecordType } from '../../api/object-types.ts';
import { batchDeleteRecords } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { isUuid } from '../../util/guards.ts';
import { readInput } from '../common/input.ts';
import { type BatchFlags, runBatch } from './batch.ts';
import { checkDryRun, planDeletes, readCurrent, reportPlan } from './batch-plan.ts';
import { definitions, plural, tableSlugs } from './shared.ts';

export interface BatchDeleteOptions extends BatchFlags {
  type: string;
  ids: string[];
  file?: string | undefined;
  /** Read the records and say which would be deleted; send nothing. */
  dryRun?: boolean | undefined;
}

/**
 * Ids from a file or stdin: one a line, the first tab-separated field of a line (so the
 * output of `ws records list … --format tsv --fields id,…` works), blank lines and lines
 * starting with # skipped, an `id` header line allowed.
 */
export function parseIdLines(text: string, source: string): string[] {
  return parseIds(text.split(/\r\n|\n|\r/), source, 'line');
}

/**
 * The record ids among `items` (lines of a file, or the command's arguments): blank ones,
 * `#` comments and an `id` header are skipped; any other that is not a UUID is a usage error
 * naming each (the first five) by its place.
 */
function parseIds(items: readonly string[], source: string, unit: 'line' | 'argument'): string[] {
  const ids: string[] = [];
  const bad: string[] = [];
  items.forEach((item, i) => {
    const first = item
      .split('\t')[0]!
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (first === '' || first.startsWith('#')) return;
    if (ids.length === 0 && bad.length === 0 && first.toLowerCase() === 'id') return;
    if (isUuid(first)) ids.push(first.toLowerCase());
    else {
      const shown = `"${first.length > 60 ? `${first.slice(0, 59)}…` : first}"`;
      bad.push(unit === 'line' ? `line ${i + 1}: ${shown}` : shown);
    }
  });
  if (bad.length > 0) {
    const shown = `${bad.slice(0, 5).join(unit === 'line' ? '; ' : ', ')}${bad.length > 5 ? ', …' : ''}`;
    const n = bad.length;
    const one = n === 1;
    throw new UsageError(
      unit === 'line'
        ? `${source} has ${n} line${one ? '' : 's'} that ${one ? 'is' : 'are'} not a record id: ${shown}.`
        : `${one ? 'One' : n} of the ids given ${one ? 'is' : 'are'} not a record id: ${shown}.`,
      unit === 'line'
        ? 'Give one record id (a UUID) a line; `ws records list TYPE --format tsv --fields id` prints them.'
        : 'Give record ids (UUIDs); `ws records list TYPE --format tsv --fields id` prints them.',
    );
  }
  return ids;
}

export async function run(opts: BatchDeleteOptions, deps: Deps): Promise<void> {
  const type = bulkRecordType(opts.type, 'batch delete');
  checkDryRun(opts);
  const ids: string[] = parseIds(opts.ids, 'The arguments', 'argument');
  if (opts.file !== undefined) {
    const input = await readInput(opts.file, deps, '--file');
    ids.push(...parseIdLines(input.text, input.source));
  }
  const unique = [...new Set(ids)];
  if (unique.length === 0) {
    if (opts.file !== undefined) {
      // An empty list from a file or a pipe (a filter that matched nothing): nothing to do.
      deps.io.info(
        `No record ids in ${opts.file === '-' ? 'stdin' : opts.file}; nothing was deleted.`,
      );
      return;
    }
    throw new UsageError(
      'No record ids to delete.',
      `Give ids as arguments or with --file F (- for stdin), e.g. ws records list ${type} --where … --format tsv --fields id | ws records batch-delete ${type} --file - --yes`,
    );
  }
  if (unique.length < ids.length)
    deps.io.info(`${ids.length - unique.length} repeated id(s) ignored.`);
  if (opts.dryRun) {
    const shown = tableSlugs(await definitions(deps, type), 1);
    const current = await readCurrent(await deps.client(), type, unique, shown, deps.signal);
    await reportPlan(deps, type, 'delete', planDeletes(unique, current, shown), shown);
    return;
  }
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${plural(unique.length, type)}? (\`ws records restore\` brings one back)`,
    `Not deleting ${plural(unique.length, type)} without confirmation.`,
  );
  await runBatch(
    { type, verb: 'delete', items: unique, idOf: (id) => id, call: batchDeleteRecords },
    opts,
    deps,
  );
}
