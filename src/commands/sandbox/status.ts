import { NotFoundError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { renderObject } from '../../output/render.ts';
import { health, readPidFile } from './shared.ts';

export type StatusOptions = Record<string, never>;

interface Row {
  status: string;
  pid: number;
  url: string;
  team_id: string;
  started_at: string;
  log: string;
  data: string | null;
}

const columns: Column<Row>[] = [
  { key: 'status' },
  { key: 'pid' },
  { key: 'url' },
  { key: 'team_id' },
  { key: 'started_at' },
  { key: 'log' },
  { key: 'data' },
];

export async function run(_opts: StatusOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const info = readPidFile(store.dir);
  if (!info) {
    throw new NotFoundError(
      'No detached sandbox is running.',
      'Start one with `ws sandbox start --detach`.',
    );
  }
  const h = await health(info.url);
  const row: Row = {
    status: h?.ok === true ? 'running' : 'not answering',
    pid: info.pid,
    url: info.url,
    team_id: info.team_id,
    started_at: info.started_at,
    log: info.log,
    data: info.data ?? null,
  };
  await renderObject(deps.io, row, columns, { format: deps.format, fields: deps.fields });
  if (h?.ok !== true) {
    throw new NotFoundError(
      `The sandbox process ${info.pid} is running but ${info.url} does not answer.`,
      `See ${info.log}.`,
    );
  }
}
