// ws records query TYPE: like list, but always through the query endpoint (POST), which
// also takes a raw query body (--body) for what the flags do not cover.
import type { Deps } from '../../factory.ts';
import { type ListOptions, listRecordsCommand } from './list.ts';

export type QueryOptions = ListOptions;

export function run(opts: QueryOptions, deps: Deps): Promise<void> {
  return listRecordsCommand(opts, deps, true);
}
