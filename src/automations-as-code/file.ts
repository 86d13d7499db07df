// The automations file: a workspace's triggered automations as YAML (or JSON), written by
// `ws automations export` and read by `validate`, `diff` and `apply` (and, one automation
// alone, by `create --file` and `update --file`).
//
//   version: 1
//   automations:
//     deal:                                 # an object type, singular or plural
//       - name: Deal won                    # an automation is its object type and name
//         on_change: [stage:to=won]         # --on-change expressions; {any: [...]} for OR
//         where: [amount>=1000]             # --where expressions; {any: [...]} for OR
//         actions:
//           - webhook: Deal alerts          # a webhook by name or id
//           - wait: 1d                      # a duration, seconds, or {cron, timezone}
//
// Conditions are the flags' language (language.ts); webhooks, contact views and contact
// properties are named by name or slug, so a file moves between workspaces. Every part of
// an automation is read with its place, so that each problem found later (a slug that does
// not exist, a webhook no one has) is reported at its line and column.

import type { Automation, AutomationKind } from '../api/automations.ts';
import { type AutomationType, objectType } from '../api/object-types.ts';
import type { UsageError } from '../errors.ts';
import { AutomationKind as AutomationKindEnum } from '../generated/enums.ts';
import { formatSchema, get, openFile, type Reader } from '../schema/file.ts';
import { closest } from '../util/suggest.ts';
import type { Yaml } from '../util/yaml.ts';
import type { ActionDraft, ConditionsDraft, Draft, ItemGroup, Source, Sourced } from './draft.ts';
import { automationObject, type Names } from './render.ts';

export const AUTOMATIONS_VERSION = 1;

type YNode = import('yaml').Node;

export interface FileType {
  type: AutomationType;
  /** Where the type is named, for messages. */
  source: Source;
  drafts: Draft[];
}

export interface AutomationFile {
  /** The file name used in messages. */
  file: string;
  types: FileType[];
}

const TOP_KEYS = ['version', 'automations'] as const;
const AUTOMATION_KEYS = [
  'name',
  'kind',
  'enabled',
  'list_id',
  'on_change',
  'on_update',
  'on_create',
  'on_delete',
  'where',
  'actions',
] as const;
const ACTION_KEYS = ['webhook', 'wait', 'agent', 'email', 'linkedin'] as const;
const EMAIL_KEYS = [
  'recipient_view',
  'recipient_email_property',
  'send_as_user_id',
  'template_id',
  'subject',
] as const;
const LINKEDIN_KEYS = [
  'recipient_view',
  'recipient_provider_property',
  'send_as_user_id',
  'template_id',
] as const;
const KINDS: readonly AutomationKind[] = AutomationKindEnum;

/** Reads one document's nodes into drafts. */
class DraftReader {
  readonly r: Reader;

  constructor(
    readonly y: Yaml,
    private readonly where: (offset: number | undefined) => string,
    r: Reader,
  ) {
    this.r = r;
  }

  source(node: YNode | null | undefined, path: string): Source {
    const offset = node?.range?.[0] ?? 0;
    return { kind: 'file', at: this.where(offset), path, offset };
  }

  sourced<T>(value: T, node: YNode | null | undefined, path: string): Sourced<T> {
    return { value, source: this.source(node, path) };
  }

  /** A text value with its place; undefined (reported) when absent and required, or wrong. */
  text(
    pairs: { key: string; value: YNode | null }[],
    key: string,
    path: string,
    owner: YNode,
  ): Sourced<string> | undefined {
    const node = get(pairs, key);
    if (node === undefined) {
      this.r.fail(owner, path, `${key} is missing`);
      return undefined;
    }
    const v = this.r.text(node, `${path}.${key}`);
    return v === undefined ? undefined : this.sourced(v, node, `${path}.${key}`);
  }

  /** An expression of on_change or where: text. */
  expression(node: YNode, path: string): Sourced<string> | undefined {
    const v = this.y.isScalar(node) ? node.value : undefined;
    if (typeof v === 'string' && v.trim() !== '') return this.sourced(v, node, path);
    this.r.fail(
      node,
      path,
      this.y.isMap(node)
        ? 'must be an expression (text), like stage:to=won or amount>=1000: put quotes around it when it has ": " in it'
        : 'must be an expression (text), like stage:to=won or amount>=1000',
    );
    return undefined;
  }

  /** on_change or where: a list (AND), or `{ any: list }` / `{ all: list }`. */
  conditions(node: YNode | null, path: string): ConditionsDraft | undefined {
    let list: YNode | null | undefined = node;
    let any = false;
    let at = path;
    if (this.y.isMap(node)) {
      const pairs = this.r.pairs(node, path, 'any or all: a list of expressions');
      if (!pairs) return undefined;
      this.r.unknownKeys(pairs, ['any', 'all'], path);
      if (pairs.length !== 1) {
        this.r.fail(
          node,
          path,
          'must hold one key, any (OR) or all (AND), with a list of expressions',
        );
        return undefined;
      }
      any = pairs[0]!.key === 'any';
      list = pairs[0]!.value;
      at = `${path}.${pairs[0]!.key}`;
    }
    if (!this.y.isSeq(list)) {
      this.r.fail(
        list ?? node,
        at,
        'must be a list of expressions (or { any: [...] } to combine them with OR)',
      );
      return undefined;
    }
    const groups: ItemGroup[] = [];
    for (const [i, item] of list.items.entries()) {
      const p = `${at}[${i}]`;
      if (this.y.isSeq(item)) {
        const items = item.items
          .map((x, j) => this.expression(x as YNode, `${p}[${j}]`))
          .filter((x) => x !== undefined);
        groups.push({ items, together: true });
      } else {
        const e = this.expression(item as YNode, p);
        if (e) groups.push({ items: [e], together: false });
      }
    }
    return { groups, any };
  }

  action(node: YNode, path: string): ActionDraft | undefined {
    const pairs = this.r.pairs(node, path, 'an action: webhook, wait, agent, email or linkedin');
    if (!pairs) return undefined;
    if (pairs.length !== 1) {
      this.r.fail(
        node,
        path,
        `must hold one action (${ACTION_KEYS.join(', ')}), not ${pairs.length === 0 ? 'none' : pairs.map((p) => p.key).join(' and ')}`,
      );
      return undefined;
    }
    this.r.unknownKeys(pairs, ACTION_KEYS, path);
    const { key, value } = pairs[0]!;
    const at = `${path}.${key}`;
    const source = this.source(node, path);
    const textOf = (n: YNode | null) => {
      const v = this.r.text(n, at);
      return v === undefined ? undefined : this.sourced(v, n, at);
    };
    switch (key) {
      case 'webhook': {
        const webhook = textOf(value);
        return webhook && { type: 'webhook', source, webhook };
      }
      case 'agent': {
        const agent = textOf(value);
        return agent && { type: 'agent', source, agent };
      }
      case 'wait': {
        if (this.y.isMap(value)) {
          const p = this.r.pairs(value, at, 'cron and timezone');
          if (!p) return undefined;
          this.r.unknownKeys(p, ['cron', 'timezone'], at);
          const cron = this.text(p, 'cron', at, value);
          const zoneNode = get(p, 'timezone');
          const zone = zoneNode === undefined ? undefined : this.r.text(zoneNode, `${at}.timezone`);
          if (!cron) return undefined;
          return {
            type: 'wait',
            source,
            cron,
            ...(zone !== undefined
              ? { timezone: this.sourced(zone, zoneNode, `${at}.timezone`) }
              : {}),
          };
        }
        const v = this.y.isScalar(value) ? value.value : undefined;
        if (typeof v === 'number' || typeof v === 'string') {
          return { type: 'wait', source, delay: this.sourced(v, value, at) };
        }
        this.r.fail(
          value ?? node,
          at,
          'must be a duration (2h, 1d, 1h30m), seconds, or { cron, timezone }',
        );
        return undefined;
      }
      case 'email':
      case 'linkedin': {
        const keys = key === 'email' ? EMAIL_KEYS : LINKEDIN_KEYS;
        const p = this.r.pairs(value, at, keys.join(', '));
        if (!p || value === null) return undefined;
        this.r.unknownKeys(p, keys, at);
        const f = Object.fromEntries(keys.map((k) => [k, this.text(p, k, at, value)]));
        if (keys.some((k) => f[k] === undefined)) return undefined;
        return key === 'email'
          ? {
              type: 'email',
              source,
              view: f.recipient_view!,
              emailProperty: f.recipient_email_property!,
              sendAs: f.send_as_user_id!,
              template: f.template_id!,
              subject: f.subject!,
            }
          : {
              type: 'linkedin',
              source,
              view: f.recipient_view!,
              providerProperty: f.recipient_provider_property!,
              sendAs: f.send_as_user_id!,
              template: f.template_id!,
            };
      }
      default:
        return undefined;
    }
  }

  /** One automation (a mapping) as a draft. */
  automation(node: YNode, path: string): Draft | undefined {
    const pairs = this.r.pairs(
      node,
      path,
      'an automation: name, on_change or on_create, actions, …',
    );
    if (!pairs) return undefined;
    this.r.unknownKeys(pairs, AUTOMATION_KEYS, path);
    const bool = (key: string) => {
      const n = get(pairs, key);
      const v = this.r.bool(n, `${path}.${key}`);
      return v === undefined ? undefined : this.sourced(v, n, `${path}.${key}`);
    };
    const name = this.text(pairs, 'name', path, node);
    if (name !== undefined && name.value.trim() === '')
      this.r.fail(get(pairs, 'name'), `${path}.name`, 'must not be empty');
    let kind: Sourced<AutomationKind> | undefined;
    const kindNode = get(pairs, 'kind');
    const kindText = this.r.text(kindNode, `${path}.kind`);
    if (kindText !== undefined) {
      if ((KINDS as readonly string[]).includes(kindText))
        kind = this.sourced(kindText as AutomationKind, kindNode, `${path}.kind`);
      else {
        const near = closest(kindText, KINDS, 1);
        this.r.fail(
          kindNode,
          `${path}.kind`,
          `"${kindText}" is not a kind${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ''}; kinds: update, lifecycle`,
        );
      }
    }
    const listNode = get(pairs, 'list_id');
    const listId = this.r.uuid(listNode, `${path}.list_id`, true);
    const actionsNode = get(pairs, 'actions');
    let actions: ActionDraft[] | undefined;
    if (actionsNode !== undefined && actionsNode !== null) {
      if (!this.y.isSeq(actionsNode))
        this.r.fail(actionsNode, `${path}.actions`, 'must be a list of actions');
      else {
        actions = actionsNode.items
          .map((a, i) => this.action(a as YNode, `${path}.actions[${i}]`))
          .filter((a) => a !== undefined);
      }
    }
    const onChangeNode = get(pairs, 'on_change');
    const whereNode = get(pairs, 'where');
    return {
      source: this.source(node, path),
      name,
      kind,
      enabled: bool('enabled'),
      listId: listId === undefined ? undefined : this.sourced(listId, listNode, `${path}.list_id`),
      onChange:
        onChangeNode === undefined ? undefined : this.conditions(onChangeNode, `${path}.on_change`),
      onUpdate: bool('on_update'),
      onCreate: bool('on_create'),
      onDelete: bool('on_delete'),
      where:
        whereNode === undefined || whereNode === null
          ? { groups: [], any: false }
          : this.conditions(whereNode, `${path}.where`),
      actions: actions ?? [],
    };
  }
}

/** A YAML (or JSON) document, its reader, and how to fail with its problems. */
async function open(text: string, file: string, what: string) {
  const { y, doc, where, r, done } = await openFile(
    text,
    file,
    what,
    'The format is described in the manual, docs/as-code.md ("Automations as code"); `ws automations export` writes a valid file to start from.',
  );
  return { y, doc, reader: new DraftReader(y, where, r), done };
}

/**
 * Read an automations file. Problems of its form (a key misspelt, a list that is not one)
 * are a usage error listing each with its line and column; what needs the workspace to be
 * checked (slugs, names) is checked when the drafts are compiled.
 */
export async function parseAutomationFile(text: string, file: string): Promise<AutomationFile> {
  const { y, doc, reader, done } = await open(text, file, 'automations file');
  const { r } = reader;
  const out: AutomationFile = { file, types: [] };
  const root = doc.contents as YNode | null;
  const top = r.pairs(root, '(top)', 'version and automations');
  if (top) {
    r.unknownKeys(top, TOP_KEYS, '(top)');
    const version = get(top, 'version');
    const v = y.isScalar(version) ? version.value : undefined;
    if (version === undefined)
      r.fail(root, '(top)', `version is missing (version: ${AUTOMATIONS_VERSION})`);
    else if (v !== AUTOMATIONS_VERSION)
      r.fail(version, 'version', `must be ${AUTOMATIONS_VERSION}, the only version ws knows`);
    const typesNode = get(top, 'automations');
    if (typesNode === undefined) r.fail(root, '(top)', 'automations is missing');
    const types =
      typesNode === undefined || typesNode === null
        ? []
        : (r.pairs(typesNode, 'automations', 'object type: a list of automations') ?? []);
    const seen = new Map<string, string>();
    for (const { key, keyNode, value } of types) {
      const path = `automations.${key}`;
      let type: AutomationType;
      try {
        type = objectType(key, 'automation') as AutomationType;
      } catch (err) {
        r.fail(keyNode, path, `${(err as Error).message} ${(err as UsageError).hint ?? ''}`.trim());
        continue;
      }
      if (seen.has(type)) {
        r.fail(
          keyNode,
          path,
          `names the object type ${type} again (as "${seen.get(type)}" before)`,
        );
        continue;
      }
      seen.set(type, key);
      const entry: FileType = { type, source: reader.source(keyNode, path), drafts: [] };
      out.types.push(entry);
      if (value === null || (y.isScalar(value) && value.value === null)) continue;
      if (!y.isSeq(value)) {
        r.fail(value, path, 'must be a list of automations (- name: …)');
        continue;
      }
      const names = new Map<string, number>();
      for (const [i, item] of value.items.entries()) {
        const draft = reader.automation(item as YNode, `${path}[${i}]`);
        if (!draft) continue;
        const name = draft.name?.value;
        if (name !== undefined) {
          const before = names.get(name);
          if (before !== undefined) {
            r.fail(
              get(r.pairs(item as YNode, '', '') ?? [], 'name'),
              `${path}[${i}].name`,
              `"${name}" names ${path}[${before}] already: an automation is known by its object type and name, so names must differ`,
            );
          }
          names.set(name, i);
        }
        entry.drafts.push(draft);
      }
    }
  }
  done();
  return out;
}

/** Read a file holding one automation (the mapping of one item of an automations file). */
export async function parseAutomationDraft(text: string, file: string): Promise<Draft> {
  const { doc, reader, done } = await open(text, file, 'automation file');
  const draft = reader.automation(doc.contents as YNode, '(automation)');
  done();
  return draft!;
}

/**
 * Read a file of actions (`ws automations create --action-file`): a list of actions, or one,
 * each as an automations file writes it (`- email: {recipient_view: …, …}`).
 */
export async function parseActionsFile(text: string, file: string): Promise<ActionDraft[]> {
  const { y, doc, reader, done } = await open(text, file, 'actions file');
  const root = doc.contents as YNode | null;
  const nodes = y.isSeq(root) ? (root.items as YNode[]) : root === null ? [] : [root];
  const actions = nodes
    .map((n, i) => reader.action(n, y.isSeq(root) ? `(actions)[${i}]` : '(action)'))
    .filter((a) => a !== undefined);
  if (nodes.length === 0) reader.r.fail(root, '(actions)', 'holds no action');
  done();
  return actions;
}

// ---------------------------------------------------------------- writing

const HEADER =
  'Triggered automations for `ws automations diff -f FILE` and `ws automations apply -f FILE`.\n' +
  'An automation is known by its object type and name; webhooks, contact views and\n' +
  'properties are named by name or slug.';

/** The file's form of the automations of each type: types and names sorted, no ids of their own. */
export function automationFileObject(
  byType: ReadonlyMap<string, readonly Automation[]>,
  names: Names,
): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const type of [...byType.keys()].sort()) {
    const list = [...(byType.get(type) ?? [])].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    types[type] = list.map((a) => automationObject(a, names));
  }
  return { version: AUTOMATIONS_VERSION, automations: types };
}

/** The text of an automations file: YAML with a header comment, or JSON. */
export function formatAutomationFile(
  obj: Record<string, unknown>,
  format: 'yaml' | 'json',
): Promise<string> {
  return formatSchema(obj, format, HEADER);
}
