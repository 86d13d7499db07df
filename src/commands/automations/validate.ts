// `ws automations validate FILE`: everything apply would check before its first write (the
// file's form, the API's rules, slugs, options, comparators, dot-paths, cron expressions,
// time zones, webhooks and views by name), writing nothing. Exit 0 valid, 2 with every
// problem at its line and column.
import type { Deps } from '../../factory.ts';
import { readChecked } from './code.ts';

export interface ValidateOptions {
  file: string;
}

export async function run(opts: ValidateOptions, deps: Deps): Promise<void> {
  const { file, desired } = await readChecked(deps, opts.file);
  const n = desired.length;
  deps.io.success(
    `${file.file} is valid: ${n} automation${n === 1 ? '' : 's'} of ${file.types.length} object type${file.types.length === 1 ? '' : 's'}.`,
  );
}
