// ws props export [TYPES…]: the workspace's own definitions and options as a schema file
// that ws props diff and apply read back (src/schema/file.ts), to stdout or --output.
import { objectType } from '../../api/object-types.ts';
import { isSharedDefault, type PropertyDefinition } from '../../api/props.ts';
import { UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { plural } from '../../output/plural.ts';
import { formatSchema, schemaObject } from '../../schema/file.ts';
import { workspaceDefinitions } from '../../schema/load.ts';
import { defaultRoles } from '../../schema/roles.ts';
import { exportFormat, writeExport } from '../common/export-file.ts';

export interface ExportOptions {
  /** Object types to export; all that have definitions of the workspace's own when empty. */
  objectTypes: string[];
  output?: string | undefined;
}

/** A file holds one definition per slug: definitions of several lists sharing one cannot be exported. */
function checkSlugs(type: string, defs: readonly PropertyDefinition[]): void {
  const seen = new Map<string, PropertyDefinition>();
  for (const d of defs) {
    const other = seen.get(d.slug);
    if (other) {
      throw new WsError(
        `The ${type} properties ${other.id} and ${d.id} (of different lists) share the slug "${d.slug}": a schema file keys definitions by slug, so it cannot hold both.`,
        { hint: 'Change the slug of one of them in the workspace, then export again.' },
      );
    }
    seen.set(d.slug, d);
  }
}

export async function run(opts: ExportOptions, deps: Deps): Promise<void> {
  const format = exportFormat('ws props export', opts.output, deps);
  const wanted = [...new Set(opts.objectTypes.map((t) => objectType(t, 'property')))];
  const all = await workspaceDefinitions(deps);
  const unknown = wanted.filter((t) => !all.has(t));
  if (unknown.length > 0) {
    throw new UsageError(
      `The workspace has no object type ${unknown.map((t) => `"${t}"`).join(', ')} for properties.`,
      `Object types: ${[...all.keys()].join(', ')} (singular or plural).`,
    );
  }
  const own = new Map<string, PropertyDefinition[]>();
  for (const [type, defs] of all) {
    if (wanted.length > 0 && !wanted.includes(type)) continue;
    const mine = defs.filter((d) => !isSharedDefault(d));
    if (mine.length === 0 && wanted.length === 0) continue;
    checkSlugs(type, mine);
    own.set(type, mine);
  }
  const text = await formatSchema(schemaObject(own, await defaultRoles(deps)), format);
  const count = [...own.values()].reduce((n, defs) => n + defs.length, 0);
  const what = `${plural(count, 'property')} of ${plural(own.size, 'object type')}`;
  await writeExport(deps, text, opts.output, what);
}
