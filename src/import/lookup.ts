// References by name: `--lookup "Company=organization.name"` fills a reference property
// with the id of the record whose `name` is the cell's text, so a file that names its
// organizations (as spreadsheets and `ws records export --select organization.name` write
// them) imports without a column of ids.
//
// Each distinct value is looked up once, in queries of 50 values (`{ slug: { in: [...] } }`),
// never one per row: the engine holds the rows read until 50 new values are waiting (or
// the rows held reach a bound, or the input ends), then asks for them all at once. A value
// no record holds fails its rows, with the closest names one more query finds (records
// whose value contains a word of it); a value several records hold fails them, with their
// ids.
import type { ApiClient } from '../api/client.ts';
import { objectType, RECORD_TYPES, type RecordType } from '../api/object-types.ts';
import { queryRecords } from '../api/records.ts';
import { UsageError } from '../errors.ts';
import { closest } from '../util/suggest.ts';
import { kindOf } from '../values/coerce.ts';
import { CellError } from './cell-error.ts';
import type { CsvEvent } from './reader.ts';
import type { Definition } from './typing.ts';

/** Values per look-up query: the most one page of answers holds. */
export const LOOKUP_BATCH = 50;

/** `--lookup COLUMN=TYPE.SLUG`, or `--lookup REF.SLUG` (the column an export names so). */
export function parseLookupFlag(value: string): { column: string; path: string } {
  const at = value.lastIndexOf('=');
  const column = (at < 0 ? value : value.slice(0, at)).trim();
  const path = (at < 0 ? value : value.slice(at + 1)).trim();
  if (column === '' || !/^[\w-]+\.[\w-]+$/.test(path)) {
    throw new UsageError(
      `--lookup takes "COLUMN=TYPE.SLUG", not "${value}".`,
      'For example --lookup "Company=organization.name" (the organization whose name is the cell), or --lookup organization.name for a column an export named so.',
    );
  }
  return { column, path };
}

/** What a lookup column reads: the records of `type` whose `slug` is the cell's text. */
export interface LookupTarget {
  type: RecordType;
  slug: string;
  /** The reference property takes several ids (a cell lists values, --array-sep apart). */
  multi: boolean;
}

/** The record type a reference property points to (`ref_organization` → organization). */
export function referencedType(def: Definition): RecordType | undefined {
  const kind = kindOf(def.type);
  if (kind !== 'reference' && kind !== 'references') return undefined;
  const name = def.type.replace(/^multiref_|^ref_/, '');
  return (RECORD_TYPES as readonly string[]).includes(name) ? (name as RecordType) : undefined;
}

/**
 * The reference property a lookup fills and what it looks up, from `TYPE.SLUG` (a record
 * type: the column's property, or the one reference property of that type) or `REF.SLUG`
 * (a reference property). `targetDefs` gives the definitions of the referenced type, to
 * check SLUG.
 */
export async function planLookup(
  flag: string,
  path: string,
  mapped: Definition | undefined,
  defs: readonly Definition[],
  targetDefs: (type: RecordType) => Promise<readonly Definition[]>,
): Promise<{ def: Definition; target: LookupTarget }> {
  const [head, slug] = path.split('.') as [string, string];
  const refs = defs.filter((d) => referencedType(d) !== undefined);
  let def = refs.find((d) => d.slug === head);
  if (!def) {
    let type: RecordType | undefined;
    try {
      type = objectType(head, 'record') as RecordType;
    } catch {
      type = undefined;
    }
    const pointing = refs.filter((d) => referencedType(d) === type);
    def =
      mapped && referencedType(mapped) === type
        ? mapped
        : pointing.length === 1
          ? pointing[0]
          : undefined;
    if (!def) {
      throw new UsageError(
        pointing.length > 1
          ? `--lookup "${flag}": several properties reference ${type} records (${pointing.map((d) => d.slug).join(', ')}).`
          : `--lookup "${flag}": "${head}" is neither a reference property nor a record type a property references.`,
        pointing.length > 1
          ? `Name the property: --lookup "${flag.replace(/=.*$/, '')}=${pointing[0]!.slug}.${slug}".`
          : `Reference properties: ${refs.map((d) => `${d.slug} (${referencedType(d)})`).join(', ') || 'none'}.`,
      );
    }
  }
  const type = referencedType(def)!;
  const target = await targetDefs(type);
  if (slug !== 'id' && !target.some((d) => d.slug === slug)) {
    const near = closest(
      slug,
      target.map((d) => d.slug),
    );
    throw new UsageError(
      `--lookup "${flag}": ${type} records have no property "${slug}".`,
      near.length > 0
        ? `Did you mean ${near.join(', ')}?`
        : `Their properties: ${target.map((d) => d.slug).join(', ')}.`,
    );
  }
  return { def, target: { type, slug, multi: kindOf(def.type) === 'references' } };
}

/** What a value resolved to. */
type Resolution = { id: string } | { none: true; closest: string[] } | { several: string[] };

interface Target extends LookupTarget {
  key: string;
  resolved: Map<string, Resolution>;
  /** Values met and not yet asked for, in the order met. */
  waiting: Set<string>;
}

/** A lookup column: where its cells are, and what they look up. */
export interface LookupColumn {
  index: number;
  header: string;
  target: LookupTarget;
}

/** The look-ups of an import: values gathered from the rows read, asked for in batches. */
export class LookupResolver {
  private readonly client: ApiClient;
  private readonly signal: AbortSignal;
  private readonly sep: string;
  private readonly columns: { index: number; target: Target }[];
  /** Look-up queries sent (the closest-name queries included). */
  queries = 0;

  constructor(
    client: ApiClient,
    columns: readonly LookupColumn[],
    sep: string,
    signal: AbortSignal,
  ) {
    this.client = client;
    this.signal = signal;
    this.sep = sep;
    const targets = new Map<string, Target>();
    this.columns = columns.map((c) => {
      const key = `${c.target.type}.${c.target.slug}`;
      let t = targets.get(key);
      if (!t) {
        t = { ...c.target, key, resolved: new Map(), waiting: new Set() };
        targets.set(key, t);
      }
      return { index: c.index, target: t };
    });
  }

  /** The values of a cell (several in a multi-reference cell), trimmed, empty ones left out. */
  values(text: string, multi: boolean): string[] {
    const parts = multi ? text.split(this.sep) : [text];
    const out: string[] = [];
    for (const p of parts) {
      const v = p.trim();
      if (v !== '') out.push(v);
    }
    return out;
  }

  /** The values the rows of these events name, with what they look up. */
  private *named(events: readonly CsvEvent[]): Generator<[Target, string]> {
    for (const ev of events) {
      if (ev.kind !== 'row') continue;
      for (const c of this.columns) {
        const text = ev.fields[c.index];
        if (!text) continue;
        for (const v of this.values(text, c.target.multi)) yield [c.target, v];
      }
    }
  }

  /** Note the values of these events that no query has answered yet. */
  gather(events: readonly CsvEvent[]): void {
    for (const [target, v] of this.named(events)) {
      if (!target.resolved.has(v)) target.waiting.add(v);
    }
  }

  /** The most values waiting for one target. */
  get waiting(): number {
    let most = 0;
    for (const c of this.columns) most = Math.max(most, c.target.waiting.size);
    return most;
  }

  /** Ask for the waiting values in batches of LOOKUP_BATCH; with `all`, a last smaller one too. */
  async resolve(all: boolean): Promise<void> {
    const done = new Set<Target>();
    for (const { target } of this.columns) {
      if (done.has(target)) continue;
      done.add(target);
      while (target.waiting.size >= LOOKUP_BATCH || (all && target.waiting.size > 0)) {
        const batch = [...target.waiting].slice(0, LOOKUP_BATCH);
        for (const v of batch) target.waiting.delete(v);
        await this.ask(target, batch);
      }
    }
  }

  /** One batch: the records holding each value, then the closest names of those none holds. */
  private async ask(target: Target, values: string[]): Promise<void> {
    const found = new Map<string, string[]>();
    for (const row of await this.query(target, [{ [target.slug]: { in: values } }], 'AND')) {
      const v = row.properties?.[target.slug];
      const key = typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
      const ids = found.get(key) ?? [];
      ids.push(row.id);
      found.set(key, ids);
    }
    const missing: string[] = [];
    for (const v of values) {
      const ids = found.get(v);
      if (!ids) missing.push(v);
      else target.resolved.set(v, ids.length === 1 ? { id: ids[0]! } : { several: ids });
    }
    if (missing.length === 0) return;
    // Records whose value holds the start of the longest word of a missing one (a typo is
    // rarely in the first letters): the names to suggest.
    const words = missing.map((v) =>
      (v.split(/[\s,.;:()&/-]+/).sort((a, b) => b.length - a.length)[0] ?? v).slice(0, 4),
    );
    const near = await this.query(
      target,
      [...new Set(words.filter((w) => w.length >= 3))].map((w) => ({
        [target.slug]: { contains: w },
      })),
      'OR',
    );
    const names = near.flatMap((r) => {
      const v = r.properties?.[target.slug];
      return typeof v === 'string' ? [v] : [];
    });
    for (const v of missing) target.resolved.set(v, { none: true, closest: closest(v, names) });
  }

  /** Every record a filter matches (page by page), its id and the looked-up value. */
  private async query(
    target: Target,
    filter: Record<string, unknown>[],
    combinator: 'AND' | 'OR',
  ): Promise<{ id: string; properties?: Record<string, unknown> }[]> {
    if (filter.length === 0) return [];
    const out: { id: string; properties?: Record<string, unknown> }[] = [];
    let cursor: string | undefined;
    do {
      this.queries++;
      const page = await queryRecords(
        this.client,
        target.type,
        {
          query: {
            select: [target.slug],
            combinator,
            filter,
            limit: LOOKUP_BATCH,
            ...(cursor === undefined ? {} : { cursor }),
          },
        } as Parameters<typeof queryRecords>[2],
        { signal: this.signal },
      );
      for (const r of page.data)
        out.push(r as { id: string; properties?: Record<string, unknown> });
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
      // Suggestions need no more than a page.
      if (combinator === 'OR') break;
    } while (cursor !== undefined);
    return out;
  }

  /** Whether every value of these events is answered. */
  ready(events: readonly CsvEvent[]): boolean {
    for (const [target, v] of this.named(events)) if (!target.resolved.has(v)) return false;
    return true;
  }

  /**
   * The JSON of a lookup cell (an id, or a list of ids), or the CellError of a value that
   * names no record or several. The cell's values must have been resolved.
   */
  json(index: number, text: string): string {
    const c = this.columns.find((col) => col.index === index)!;
    const t = c.target;
    const ids: string[] = [];
    for (const v of this.values(text, t.multi)) {
      const r = t.resolved.get(v);
      if (r === undefined) throw new Error(`lookup: "${v}" was not resolved`);
      if ('id' in r) {
        if (!ids.includes(r.id)) ids.push(r.id);
      } else if ('several' in r) {
        throw new CellError(
          'lookup_ambiguous',
          `${JSON.stringify(v)} is the ${t.slug} of ${r.several.length} ${t.type} records (${r.several.slice(0, 5).join(', ')}${r.several.length > 5 ? ', …' : ''}): make it unique, or give the record's id`,
        );
      } else {
        throw new CellError(
          'lookup_not_found',
          `no ${t.type} has the ${t.slug} ${JSON.stringify(v)}${r.closest.length > 0 ? `; closest: ${r.closest.map((n) => JSON.stringify(n)).join(', ')}` : ''}`,
        );
      }
    }
    return JSON.stringify(t.multi ? ids : ids[0]);
  }
}
