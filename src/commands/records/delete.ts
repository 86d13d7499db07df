// ws records delete TYPE ID: a soft delete (undo with restore). Asks first on a terminal;
// needs --yes otherwise.
import { deleteRecord } from '../../api/records.ts';
import type { Deps } from '../../factory.ts';
import { confirmOrRefuse } from '../../prompt/prompter.ts';
import { preconditionFailed } from './if-match.ts';
import { recordId, recordType } from './shared.ts';

export interface DeleteOptions {
  type: string;
  id: string;
  ifMatch?: string | undefined;
}

export async function run(opts: DeleteOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const id = recordId(opts.id);
  await confirmOrRefuse(
    deps.io,
    deps.prompter,
    `Delete ${type} ${id}? (\`ws records restore ${type} ${id}\` brings it back)`,
    `Not deleting ${type} ${id} without confirmation.`,
  );
  const client = await deps.client();
  await deleteRecord(client, type, id, { ifMatch: opts.ifMatch, signal: deps.signal }).catch(
    (err: unknown) => {
      throw preconditionFailed(err, type, id, 'delete');
    },
  );
  deps.io.success(`Deleted ${type} ${id} (restore it with \`ws records restore ${type} ${id}\`).`);
  if (deps.format === 'json' || deps.format === 'ndjson')
    deps.io.println(JSON.stringify({ id, deleted: true }));
}
