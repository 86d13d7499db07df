// A record's values as a user gives them: the body of a write from --data (raw JSON) and
// --set (typed by the properties' definitions), and a map of values checked against them.
import type { RecordType } from '../../api/object-types.ts';
import type { RecordWrite } from '../../api/records.ts';
import { UsageError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import {
  definitionsFor,
  findDefinition,
  type PropertyDefinition,
} from '../../schema/definitions.ts';
import { isPlainObject } from '../../util/guards.ts';
import { coerceValue, normaliseValue } from '../../values/coerce.ts';
import { readJsonArg } from './input.ts';

/** `--data`: the raw `default` map, sent as given. */
async function readDataFlag(
  spec: string | undefined,
  deps: Deps,
): Promise<Record<string, unknown>> {
  if (spec === undefined) return {};
  const data = await readJsonArg(spec, deps, '--data');
  if (!isPlainObject(data)) {
    throw new UsageError(
      '--data must be a JSON object of property values keyed by slug.',
      `For example --data '{"name":"Ada","score":42}'.`,
    );
  }
  return data;
}

/** One --set: `slug=value` (typed by the property's definition) or `slug:=JSON` (raw). */
function splitSet(spec: string): { slug: string; text: string; raw: boolean } {
  const eq = spec.indexOf('=');
  if (eq <= 0) {
    throw new UsageError(
      `--set "${spec}" must be slug=value.`,
      'For example --set name="Ada Lovelace" --set score=42 --set tags=vip,partner; slug:=JSON sends raw JSON.',
    );
  }
  const raw = spec[eq - 1] === ':';
  const slug = spec.slice(0, raw ? eq - 1 : eq).trim();
  if (slug === '') throw new UsageError(`--set "${spec}" has no property slug before "=".`);
  return { slug, text: spec.slice(eq + 1), raw };
}

/**
 * The values of --set flags, typed by their definitions. An unknown slug or a value that
 * does not fit its type is a usage error (exit 2) before any request.
 */
function parseSets(
  sets: readonly string[],
  defs: readonly PropertyDefinition[],
  type: RecordType,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of sets) {
    const { slug, text, raw } = splitSet(spec);
    const def = findDefinition(defs, slug, type);
    if (raw) {
      try {
        out[def.slug] = JSON.parse(text);
      } catch (e) {
        throw new UsageError(
          `--set "${spec}": the value after ":=" is not valid JSON (${(e as Error).message}).`,
          `Write ${slug}:='"text"' for a JSON string, or ${slug}=value to have it typed.`,
        );
      }
      continue;
    }
    const r = coerceValue(def, text);
    if (!r.ok) throw new UsageError(`--set "${spec}": ${r.error}`, r.hint);
    out[def.slug] = r.value;
  }
  return out;
}

/** Check a typed value map (JSON, YAML) against definitions: the values in write form, or the problems. */
export function checkValues(
  values: Record<string, unknown>,
  defs: readonly PropertyDefinition[],
  type: RecordType,
): { values: Record<string, unknown>; problems: string[] } {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [slug, value] of Object.entries(values)) {
    let def: PropertyDefinition;
    try {
      def = findDefinition(defs, slug, type);
    } catch (e) {
      problems.push((e as Error).message);
      continue;
    }
    const r = normaliseValue(def, value);
    if (r.ok) out[def.slug] = r.value;
    else problems.push(r.error + (r.hint ? ` ${r.hint}` : ''));
  }
  return { values: out, problems };
}

/**
 * The body of a create, update or upsert from --data (raw) and --set (typed, applied on
 * top). Definitions are fetched only when there are --set flags.
 */
export async function buildWrite(
  opts: { set: readonly string[]; data?: string | undefined },
  deps: Deps,
  type: RecordType,
  listId?: string | undefined,
): Promise<RecordWrite> {
  const values = await readDataFlag(opts.data, deps);
  if (opts.set.length > 0) {
    for (const s of opts.set) splitSet(s);
    const defs = await definitionsFor(deps, type, { listId });
    Object.assign(values, parseSets(opts.set, defs, type));
  }
  return { default: values };
}
