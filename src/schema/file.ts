// The schema file: a workspace's own property definitions and their options as YAML (or
// JSON), written by `ws props export` and read by `ws props diff` and `ws props apply`.
//
//   version: 1
//   object_types:
//     contact:                      # singular or plural
//       lead_source:                # the definition's slug
//         name: Lead source
//         type: select_str
//         required: false
//         options:                  # in display order
//           - slug: web
//             value: Web
//             color_scheme: blue
//
// Definitions are keyed by slug and carry no ids, so a file moves between workspaces.
// Fields left out mean: required false, icon none, enabled true, list_id none (the whole
// workspace), role_id the type's default (the API picks it on create; export leaves out a
// role_id it knows to be the default, see roles.ts); an option's color_scheme, description, icon and option_group none, its list_id
// the definition's. The yaml package loads only when a file is read or written.

import { objectType } from '../api/object-types.ts';
import {
  bySlug,
  hasOptions,
  listScope,
  orderedOptions,
  PROPERTY_TYPE_NAMES,
  type PropertyDefinition,
  type PropertyType,
} from '../api/props.ts';
import { UsageError } from '../errors.ts';
import { isUuid } from '../util/guards.ts';
import { closest } from '../util/suggest.ts';
import { loadYaml, type Yaml } from '../util/yaml.ts';

export const SCHEMA_VERSION = 1;

export interface SchemaOption {
  slug: string;
  value: string;
  color_scheme: string | null;
  description: string | null;
  icon: string | null;
  option_group: string | null;
  /** undefined: the definition's list. */
  list_id?: string | null | undefined;
}

export interface SchemaProperty {
  slug: string;
  name: string;
  type: PropertyType;
  required: boolean;
  icon: string | null;
  enabled: boolean;
  list_id: string | null;
  /** undefined: not managed by the file. */
  role_id?: string | undefined;
  /** Only on select types; [] when the file lists none. */
  options?: SchemaOption[] | undefined;
  /** Where the definition is in the file ("schema.yaml:12:5"), for messages. */
  at: string;
}

export interface SchemaObjectType {
  type: string;
  properties: SchemaProperty[];
  at: string;
}

export interface Schema {
  /** The file name used in messages. */
  file: string;
  objectTypes: SchemaObjectType[];
}

const PROPERTY_KEYS = [
  'name',
  'type',
  'required',
  'icon',
  'enabled',
  'list_id',
  'role_id',
  'options',
] as const;
const OPTION_KEYS = [
  'slug',
  'value',
  'color_scheme',
  'description',
  'icon',
  'option_group',
  'list_id',
] as const;
const TOP_KEYS = ['version', 'object_types'] as const;

/** Slugs as the API makes them: lower-case letters, digits and underscores. */
const SLUG = /^[a-z0-9][a-z0-9_]*$/;

type YNode = import('yaml').Node;

/** One problem in a file, with its place. */
interface Problem {
  offset: number | undefined;
  path: string;
  message: string;
}

/** Reads YAML nodes, collecting problems with their place (also the automations file's reader). */
export class Reader {
  readonly problems: Problem[] = [];
  constructor(
    private readonly y: Yaml,
    private readonly where: (offset: number | undefined) => string,
  ) {}

  at(node: YNode | null | undefined): string {
    return this.where(node?.range?.[0]);
  }

  fail(node: YNode | null | undefined, path: string, message: string): void {
    this.problems.push({ offset: node?.range?.[0], path, message });
  }

  /** The pairs of a mapping as [key text, key node, value node], or undefined (reported). */
  pairs(node: YNode | null | undefined, path: string, what: string) {
    if (!this.y.isMap(node)) {
      this.fail(node, path, `must be a mapping (${what})`);
      return undefined;
    }
    const out: { key: string; keyNode: YNode; value: YNode | null }[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as YNode;
      const key = this.y.isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string' && typeof key !== 'number') {
        this.fail(keyNode, path, 'keys must be plain text');
        continue;
      }
      out.push({ key: String(key), keyNode, value: (pair.value as YNode | null) ?? null });
    }
    return out;
  }

  unknownKeys(
    pairs: { key: string; keyNode: YNode }[],
    allowed: readonly string[],
    path: string,
  ): void {
    for (const { key, keyNode } of pairs) {
      if (allowed.includes(key)) continue;
      const near = closest(key, allowed, 1);
      this.fail(
        keyNode,
        path,
        `unknown field "${key}"${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ''}; fields: ${allowed.join(', ')}`,
      );
    }
  }

  /** A text value (numbers are taken as their text); undefined when absent or wrong. */
  text(node: YNode | null | undefined, path: string): string | undefined {
    const v = this.textOrNull(node, path, false);
    return v === null ? undefined : v;
  }

  /** A text value or null; undefined when absent or wrong. */
  textOrNull(node: YNode | null | undefined, path: string, nullable = true) {
    if (node === undefined) return undefined;
    const v = this.y.isScalar(node) ? node.value : node;
    if (v === null && nullable) return null;
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(v);
    this.fail(
      node,
      path,
      `must be text${nullable ? ' or null' : ''}${typeof v === 'boolean' ? ' (put quotes around it)' : ''}`,
    );
    return undefined;
  }

  isSeq(node: YNode): node is import('yaml').YAMLSeq<YNode> {
    return this.y.isSeq(node);
  }

  bool(node: YNode | null | undefined, path: string): boolean | undefined {
    if (node === undefined) return undefined;
    const v = this.y.isScalar(node) ? node.value : node;
    if (typeof v === 'boolean') return v;
    this.fail(node, path, 'must be true or false');
    return undefined;
  }

  uuid(node: YNode | null | undefined, path: string, nullable: boolean) {
    const v = this.textOrNull(node, path, nullable);
    if (typeof v === 'string' && !isUuid(v)) {
      this.fail(node, path, `"${v}" is not an id (a UUID)`);
      return undefined;
    }
    return v;
  }
}

export function get(
  pairs: { key: string; value: YNode | null }[],
  key: string,
): YNode | null | undefined {
  const p = pairs.find((x) => x.key === key);
  return p === undefined ? undefined : p.value;
}

function readOption(r: Reader, node: YNode, path: string): SchemaOption | undefined {
  const pairs = r.pairs(node, path, 'an option: slug, value, color_scheme, …');
  if (!pairs) return undefined;
  r.unknownKeys(pairs, OPTION_KEYS, path);
  const slug = r.text(get(pairs, 'slug'), `${path}.slug`);
  const value = r.text(get(pairs, 'value'), `${path}.value`);
  if (slug === undefined && get(pairs, 'slug') === undefined) r.fail(node, path, 'slug is missing');
  if (value === undefined && get(pairs, 'value') === undefined)
    r.fail(node, path, 'value is missing');
  if (slug !== undefined && !SLUG.test(slug)) {
    r.fail(
      get(pairs, 'slug'),
      `${path}.slug`,
      `"${slug}" is not a slug: use lower-case letters, digits and underscores`,
    );
  }
  if (value !== undefined && value.trim() === '')
    r.fail(get(pairs, 'value'), `${path}.value`, 'must not be empty');
  const opt = (k: string) => r.textOrNull(get(pairs, k), `${path}.${k}`) ?? null;
  const listNode = get(pairs, 'list_id');
  const out: SchemaOption = {
    slug: slug ?? '',
    value: value ?? '',
    color_scheme: opt('color_scheme'),
    description: opt('description'),
    icon: opt('icon'),
    option_group: opt('option_group'),
  };
  if (listNode !== undefined) out.list_id = r.uuid(listNode, `${path}.list_id`, true) ?? null;
  return out;
}

function readProperty(
  r: Reader,
  slug: string,
  keyNode: YNode,
  node: YNode | null,
  path: string,
): SchemaProperty | undefined {
  const pairs = r.pairs(node, path, 'a property: name, type, required, options, …');
  if (!pairs) return undefined;
  r.unknownKeys(pairs, PROPERTY_KEYS, path);
  const name = r.text(get(pairs, 'name'), `${path}.name`);
  if (get(pairs, 'name') === undefined) r.fail(node, path, 'name is missing');
  else if (name !== undefined && name.trim() === '')
    r.fail(get(pairs, 'name'), `${path}.name`, 'must not be empty');
  const typeText = r.text(get(pairs, 'type'), `${path}.type`);
  let type: PropertyType | undefined;
  if (get(pairs, 'type') === undefined) r.fail(node, path, 'type is missing');
  else if (typeText !== undefined) {
    if ((PROPERTY_TYPE_NAMES as readonly string[]).includes(typeText))
      type = typeText as PropertyType;
    else {
      const near = closest(typeText, PROPERTY_TYPE_NAMES, 1);
      r.fail(
        get(pairs, 'type'),
        `${path}.type`,
        `"${typeText}" is not a property type${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ''}`,
      );
    }
  }
  const prop: SchemaProperty = {
    slug,
    name: name ?? '',
    type: type ?? 'str',
    required: r.bool(get(pairs, 'required'), `${path}.required`) ?? false,
    icon: r.textOrNull(get(pairs, 'icon'), `${path}.icon`) ?? null,
    enabled: r.bool(get(pairs, 'enabled'), `${path}.enabled`) ?? true,
    list_id: r.uuid(get(pairs, 'list_id'), `${path}.list_id`, true) ?? null,
    at: r.at(keyNode),
  };
  const role = r.uuid(get(pairs, 'role_id'), `${path}.role_id`, false);
  if (typeof role === 'string') prop.role_id = role;

  const optionsNode = get(pairs, 'options');
  if (type !== undefined && hasOptions(type)) prop.options = [];
  if (optionsNode !== undefined && optionsNode !== null) {
    if (type !== undefined && !hasOptions(type)) {
      r.fail(
        optionsNode,
        `${path}.options`,
        `only select_str and multiselect_str properties have options, not ${type}`,
      );
    } else if (!r.isSeq(optionsNode)) {
      r.fail(optionsNode, `${path}.options`, 'must be a list of options');
    } else {
      const seen = new Set<string>();
      const list: SchemaOption[] = [];
      for (const [i, item] of optionsNode.items.entries()) {
        const o = readOption(r, item, `${path}.options[${i}]`);
        if (!o) continue;
        if (seen.has(o.slug))
          r.fail(item, `${path}.options[${i}].slug`, `"${o.slug}" appears twice`);
        seen.add(o.slug);
        list.push(o);
      }
      prop.options = list;
    }
  }
  return prop;
}

/**
 * A file as code (a schema or automations file), YAML or JSON, parsed with its lines counted:
 * its syntax errors fail at once, and `done()` fails with the problems the reader `r` found,
 * each with its line and column ("schema.yaml:12:7: object_types.contact.stage.type: …"), as
 * a usage error saying the file is not a valid `what`, with `hint`.
 */
export async function openFile(text: string, file: string, what: string, hint: string) {
  const y = await loadYaml();
  const lines = new y.LineCounter();
  const doc = y.parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const where = (offset: number | undefined) => {
    if (offset === undefined) return file;
    const pos = lines.linePos(offset);
    return `${file}:${pos.line}:${pos.col}`;
  };
  const fail = (problems: string[]): never => {
    throw new UsageError(
      `${file} is not a valid ${what}:\n${problems.map((p) => `  ${p}`).join('\n')}`,
      hint,
    );
  };
  if (doc.errors.length > 0)
    fail(doc.errors.map((e) => `${where(e.pos[0])}: ${e.message.split('\n')[0]}`));
  const r = new Reader(y, where);
  const done = () => {
    if (r.problems.length > 0) {
      fail(
        [...r.problems]
          .sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0))
          .map((p) => `${where(p.offset)}: ${p.path}: ${p.message}`),
      );
    }
  };
  return { y, doc, where, r, done };
}

/**
 * Read a schema file. A bad file is a usage error listing every problem with its line and
 * column ("schema.yaml:12:7: object_types.contact.stage.type: …").
 */
export async function parseSchema(text: string, file: string): Promise<Schema> {
  const { y, doc, r, done } = await openFile(
    text,
    file,
    'schema file',
    'The format is described in the manual, docs/as-code.md ("Schema as code"); `ws props export` writes a valid file to start from.',
  );
  const schema: Schema = { file, objectTypes: [] };
  const top = r.pairs(doc.contents as YNode | null, '(top)', 'version and object_types');
  if (top) {
    r.unknownKeys(top, TOP_KEYS, '(top)');
    const version = get(top, 'version');
    const v = y.isScalar(version) ? version.value : undefined;
    if (version === undefined)
      r.fail(doc.contents as YNode, '(top)', 'version is missing (version: 1)');
    else if (v !== SCHEMA_VERSION)
      r.fail(version, 'version', `must be ${SCHEMA_VERSION}, the only version ws knows`);
    const typesNode = get(top, 'object_types');
    if (typesNode === undefined) r.fail(doc.contents as YNode, '(top)', 'object_types is missing');
    const types =
      typesNode === undefined
        ? []
        : (r.pairs(typesNode, 'object_types', 'object type: properties') ?? []);
    const seenTypes = new Map<string, string>();
    for (const { key, keyNode, value } of types) {
      let type: string;
      try {
        type = objectType(key, 'property');
      } catch (err) {
        r.fail(keyNode, `object_types.${key}`, (err as Error).message);
        continue;
      }
      if (seenTypes.has(type)) {
        r.fail(
          keyNode,
          `object_types.${key}`,
          `names the object type ${type} again (as "${seenTypes.get(type)}" before)`,
        );
        continue;
      }
      seenTypes.set(type, key);
      const entry: SchemaObjectType = { type, properties: [], at: r.at(keyNode) };
      schema.objectTypes.push(entry);
      if (value === null || (y.isScalar(value) && value.value === null)) continue;
      const props = r.pairs(value, `object_types.${key}`, 'property slug: definition') ?? [];
      for (const p of props) {
        const path = `object_types.${key}.${p.key}`;
        if (!SLUG.test(p.key)) {
          r.fail(
            p.keyNode,
            path,
            `"${p.key}" is not a slug: use lower-case letters, digits and underscores`,
          );
          continue;
        }
        const prop = readProperty(r, p.key, p.keyNode, p.value, path);
        if (prop) entry.properties.push(prop);
      }
    }
  }
  done();
  return schema;
}

// ---------------------------------------------------------------- writing

const HEADER =
  'Property definitions for `ws props diff -f FILE` and `ws props apply -f FILE`.\n' +
  'Definitions are keyed by slug; options are listed in display order.';

/** The file's form of a workspace's own definitions: stable order, no ids. */
export function schemaObject(
  byType: ReadonlyMap<string, readonly PropertyDefinition[]>,
  /** The default role of each storage type, where known (roles.ts): left out of the file. */
  defaultRoles: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const objectTypes: Record<string, unknown> = {};
  for (const type of [...byType.keys()].sort()) {
    const props: Record<string, unknown> = {};
    const defs = [...(byType.get(type) ?? [])].sort(bySlug);
    for (const d of defs) props[d.slug] = propertyObject(d, defaultRoles);
    objectTypes[type] = props;
  }
  return { version: SCHEMA_VERSION, object_types: objectTypes };
}

function propertyObject(
  d: PropertyDefinition,
  defaultRoles: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const listId = listScope(d);
  const out: Record<string, unknown> = {
    name: d.name ?? d.slug,
    type: d.type,
    required: d.required ?? false,
  };
  if (d.icon != null) out.icon = d.icon;
  if (d.enabled === false) out.enabled = false;
  if (listId !== null) out.list_id = listId;
  if (d.role_id != null && d.role_id !== defaultRoles[d.type]) out.role_id = d.role_id;
  if (hasOptions(d.type)) {
    out.options = orderedOptions(d).map((o) => {
      const opt: Record<string, unknown> = { slug: o.slug, value: o.value ?? o.slug };
      for (const k of ['color_scheme', 'description', 'icon', 'option_group'] as const)
        if (o[k] != null) opt[k] = o[k];
      const optList = o.list_id ?? o.crm_id ?? null;
      if (optList !== listId) opt.list_id = optList;
      return opt;
    });
  }
  return out;
}

/** The text of a schema file (or another file of ws's as code): YAML with a header comment, or JSON. */
export async function formatSchema(
  obj: Record<string, unknown>,
  format: 'yaml' | 'json',
  header: string = HEADER,
): Promise<string> {
  if (format === 'json') return `${JSON.stringify(obj, null, 2)}\n`;
  const y = await loadYaml();
  const doc = new y.Document(obj);
  doc.commentBefore = header
    .split('\n')
    .map((l) => ` ${l}`)
    .join('\n');
  return doc.toString({ lineWidth: 0 });
}
