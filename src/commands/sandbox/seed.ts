// `ws sandbox seed FILE`: records written into the sandbox to set up a test, firing no
// automation and no delivery (POST /__sandbox/seed: ids kept, references among the file's
// records resolved in any order, all or nothing). The file is JSON:
//
//   { "records": { "organization": [ { "id": "…", "default": { "name": "Acme" } } ],
//                  "contact": [ { "default": { "name": "Ada", "organization": "…" } } ] } }
import { type SeedAnswer, seedRecords } from '../../api/sandbox.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { readInput } from '../common/input.ts';

export interface SeedOptions {
  file: string;
}

export async function run(opts: SeedOptions, deps: Deps): Promise<void> {
  const input = await readInput(opts.file, deps, 'the seed file');
  let body: unknown;
  try {
    body = JSON.parse(input.text);
  } catch (err) {
    throw new UsageError(
      `${input.source} is not JSON: ${(err as Error).message}.`,
      'A seed file is { "records": { "contact": [ { "id"?: "…", "default": { "name": "…" } } ] } }.',
    );
  }
  const client = await deps.client();
  const answer: SeedAnswer = await seedRecords(client, body, { signal: deps.signal });
  if (deps.format === 'json' || deps.format === 'ndjson') {
    deps.io.println(JSON.stringify(answer));
    return;
  }
  const counts = Object.entries(answer.created).map(([type, n]) => plural(n, `${type} record`));
  const total = Object.values(answer.created).reduce((n, c) => n + c, 0);
  deps.io.success(
    total === 0
      ? 'Seeded nothing: the file holds no records.'
      : `Seeded ${counts.join(', ')}: no automation ran and no delivery was made.`,
  );
}
