// ws alias list: every alias and what it stands for (a table, rows piped, or JSON).
import type { Deps } from '../../factory.ts';
import { createRowWriter } from '../../output/render.ts';
import { type AliasRow, aliasColumns, builtinWords } from './shared.ts';

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, deps: Deps): Promise<void> {
  const store = await deps.config();
  const builtins = new Set(builtinWords());
  const rows: AliasRow[] = [...store.aliases()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, expansion]) => ({ name, expansion, shadowed: builtins.has(name) }));
  if (rows.length === 0 && deps.format === 'table') {
    deps.io.info("No aliases. Add one with `ws alias set NAME 'records list …'`.");
    return;
  }
  const writer = createRowWriter(deps.io, aliasColumns, {
    format: deps.format,
    fields: deps.fields,
  });
  await writer.write(rows);
  await writer.end();
}
