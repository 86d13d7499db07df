// Property slugs in --where, --select, --sort and --group-by: their syntax, and, when the
// object type's definitions are at hand, a check that they exist ("did you mean …").
import type { Schemas } from '../api/types.ts';
import { UsageError } from '../errors.ts';
import { didYouMean } from '../util/suggest.ts';

export type PropertyDefinition = Schemas['PropertyDefinition'];

/** What the parsers know about the object type, all optional. */
export interface SlugContext {
  /** The object type's property definitions; without them slugs are not checked. */
  definitions?: readonly PropertyDefinition[] | undefined;
  /** Named in messages ("deal has no property …"). */
  objectType?: string | undefined;
  /** Slugs accepted without a definition (default: `id`, which every record has). */
  extraSlugs?: readonly string[] | undefined;
}

/** One slug segment: letters, digits, `_` and `-`. */
export const SLUG = '[A-Za-z0-9_][A-Za-z0-9_-]*';
/** A slug, or a dot-path through references (`organization.name`). */
export const SLUG_PATH = new RegExp(`^${SLUG}(?:\\.${SLUG})*$`);

const DEFAULT_EXTRAS = ['id'];
const SELECT_TYPES = new Set(['select_str', 'multiselect_str']);

export function isReferenceType(type: string): boolean {
  return type.startsWith('ref_') || type.startsWith('multiref_');
}

export function isSelectType(type: string): boolean {
  return SELECT_TYPES.has(type);
}

/** The definition with this slug (or id), if any. */
export function definitionOf(
  slugOrId: string,
  definitions: readonly PropertyDefinition[] | undefined,
): PropertyDefinition | undefined {
  return (
    definitions?.find((d) => d.slug === slugOrId) ?? definitions?.find((d) => d.id === slugOrId)
  );
}

/**
 * Check a slug or dot-path against the definitions (its first segment only: what lies
 * beyond a reference belongs to another object type). `where` places the mistake in the
 * message, e.g. `--sort "-amout"`. Returns the first segment's definition, or undefined
 * when there are no definitions to check against or the slug is one of the extras.
 */
export function checkPath(
  path: string,
  ctx: SlugContext,
  where: string,
): PropertyDefinition | undefined {
  if (!SLUG_PATH.test(path)) {
    throw new UsageError(
      `"${path}" in ${where} is not a property slug.`,
      'Slugs are made of letters, digits, "_" and "-"; follow a reference with a dot, e.g. organization.name.',
    );
  }
  const defs = ctx.definitions;
  if (!defs) return undefined;
  const [first, ...restOfPath] = path.split('.') as [string, ...string[]];
  const extras = ctx.extraSlugs ?? DEFAULT_EXTRAS;
  if (extras.includes(first) && !defs.some((d) => d.slug === first)) return undefined;
  const def = defs.find((d) => d.slug === first);
  const owner = ctx.objectType ? `${ctx.objectType} has` : 'there is';
  if (!def) {
    const slugs = [...new Set(defs.map((d) => d.slug))].sort();
    const near = didYouMean(first, [...slugs, ...extras]);
    const listed =
      slugs.length <= 25
        ? slugs.join(', ')
        : `${slugs.slice(0, 25).join(', ')}, … (${slugs.length})`;
    throw new UsageError(
      `Unknown property "${first}" in ${where}: ${owner} no property with that slug.`,
      near ?? (slugs.length > 0 ? `Known slugs: ${listed}.` : undefined),
    );
  }
  if (restOfPath.length > 0 && !isReferenceType(def.type)) {
    throw new UsageError(
      `"${path}" in ${where} follows "${first}", which is a ${def.type} property, not a reference.`,
      `Dot-paths only follow reference properties; write "${first}" alone.`,
    );
  }
  return def;
}

/** The comma-separated slugs of a flag, trimmed; an empty item is a usage error. */
export function slugList(flag: string, spec: string, example: string): string[] {
  const parts = spec.split(',').map((p) => p.trim());
  if (spec.trim() === '') {
    throw new UsageError(`${flag} needs at least one property slug.`, `e.g. ${flag} ${example}`);
  }
  const empty = parts.indexOf('');
  if (empty >= 0) {
    throw new UsageError(
      `${flag} "${spec}" has an empty item (number ${empty + 1}).`,
      `Separate slugs with single commas, e.g. ${flag} ${example}`,
    );
  }
  return parts;
}
