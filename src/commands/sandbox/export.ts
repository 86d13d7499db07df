// `ws sandbox export FILE`: a snapshot of the running sandbox (GET /__sandbox/snapshot), as
// its file holds it (src/sandbox/snapshot.ts: sorted keys, ids kept, fit to commit), written
// whole or not at all with mode 0600 (webhooks' signing secrets are in it). - writes stdout.
import { getSnapshot } from '../../api/sandbox.ts';
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { writeFileAtomic } from '../../util/file-lock.ts';

export interface ExportOptions {
  file: string;
}

export async function run(opts: ExportOptions, deps: Deps): Promise<void> {
  const client = await deps.client();
  const body = await getSnapshot(client, { signal: deps.signal });
  const { checkSnapshot, snapshotText } = await import('../../sandbox/snapshot.ts');
  let snapshot: ReturnType<typeof checkSnapshot>;
  try {
    snapshot = checkSnapshot(body, 'The answer of GET /__sandbox/snapshot');
  } catch (err) {
    throw new WsError((err as Error).message, {
      hint: 'Is the profile a ws sandbox of this version? `ws sandbox status` tells.',
    });
  }
  const text = snapshotText(snapshot);
  const records = snapshot.teams.reduce((n, team) => n + countRecords(team.slices['records']), 0);
  const what = `a snapshot of ${plural(snapshot.teams.length, 'team')} (${plural(records, 'record')})`;
  if (opts.file === '-') {
    deps.io.write(text);
    deps.io.info(`Exported ${what}.`);
    return;
  }
  try {
    writeFileAtomic(opts.file, text);
  } catch (err) {
    throw new WsError(`Cannot write ${opts.file}: ${(err as Error).message}`, {
      hint: 'Check the directory exists and can be written to.',
    });
  }
  deps.io.success(`Exported ${what} to ${opts.file}.`);
}

/** The records of a snapshot's records slice (arrays by object type). */
function countRecords(slice: unknown): number {
  if (slice === null || typeof slice !== 'object') return 0;
  return Object.values(slice).reduce(
    (n: number, rows) => n + (Array.isArray(rows) ? rows.length : 0),
    0,
  );
}
