// ws records batch-delete TYPE [IDS…] [--file F|-]: soft-delete many records, 100 per
// call. Asks first on a terminal; needs --yes otherwise.
import { bulkRecordType } from '../../api/object-types.ts';
import { batchDeleteRecords } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { isUuid } from '../../util/guards.ts';
import { readInput } from '../common/input.ts';
import { type BatchFlags, runBatch } from './batch.ts';
import { plural } from './shared.ts';

export interface BatchDeleteOptions extends BatchFlags {
  type: string;
  ids: string[];
  file?: string | undefined;
}

/**
 * Ids from a file or stdin: one a line, the first tab-separated field of a line (so the
 * output of `ws records list … --format tsv --fields id,…` works), blank lines and lines
 * starting with # skipped, an `id` header line allowed.
 */
export function parseIdLines(text: string, source: string): string[] {
  const ids: string[] = [];
  const bad: string[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    const first = line
      .split('\t')[0]!
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (first === '' || first.startsWith('#')) return;
    if (ids.length === 0 && bad.length === 0 && first.toLowerCase() === 'id') return;
    if (isUuid(first)) ids.push(first.toLowerCase());
    else bad.push(`line ${i + 1}: "${first.length > 60 ? `${first.slice(0, 59)}…` : first}"`);
  });
  if (bad.length > 0) {
    const shown = bad.slice(0, 5).join('; ');
    throw new UsageError(
      `${source} has ${bad.length} line${bad.length === 1 ? '' : 's'} that ${bad.length === 1 ? 'is' : 'are'} not a record id: ${shown}${bad.length > 5 ? '; …' : ''}.`,
      'Give one record id (a UUID) a line; `ws records list TYPE --format tsv --fields id` prints them.',
    );
  }
  return ids;
}

export async function run(opts: BatchDeleteOptions, deps: Deps): Promise<void> {
  const type = bulkRecordType(opts.type, 'batch delete');
  const ids: string[] = parseIdLines(opts.ids.join('\n'), 'The arguments');
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
