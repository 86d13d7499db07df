// `ws import jobs`: the import jobs started from this machine (the local ledger), newest first.
import type { Deps } from '../../factory.ts';
import { type LedgerEntry, readLedger } from '../../import/state.ts';
import type { Column } from '../../output/format.ts';
import { renderRows } from '../../output/render.ts';

export interface JobsOpts {
  limit: number;
}

const COLUMNS: Column<LedgerEntry>[] = [
  { key: 'job_id', header: 'JOB' },
  { key: 'object_type', header: 'TYPE' },
  { key: 'file', header: 'FILE' },
  { key: 'lines', header: 'LINES', get: (e) => e.lines, text: (v) => (v as number[]).join('-') },
  { key: 'rows', header: 'ROWS', align: 'right' },
  { key: 'started_at', header: 'STARTED' },
  { key: 'base_url', header: 'BASE URL', default: false },
  { key: 'team_id', header: 'TEAM', default: false },
  { key: 'chunk', header: 'CHUNK', default: false },
];

export async function run(opts: JobsOpts, deps: Deps): Promise<void> {
  const creds = await deps.credentials().catch(() => undefined);
  const entries = readLedger(deps.env)
    .filter((e) => !creds || (e.base_url === creds.baseUrl && e.team_id === creds.teamId))
    .sort((a, b) =>
      a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : b.chunk - a.chunk,
    )
    .slice(0, opts.limit);
  await renderRows(deps.io, entries, COLUMNS, {
    format: deps.format,
    fields: deps.fields,
    emptyMessage: 'No import jobs were started from this machine in the last 7 days.',
  });
}
