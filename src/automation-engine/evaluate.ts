// The automation evaluator: does a triggered automation fire for a write, and why. One
// module for the sandbox, which runs automations on every write path, and for the CLI
// (`ws automations test`), which explains them against the hosted service: it works from
// plain data (the automation, the record before and after, the property definitions, a way
// to read referenced records) and imports neither the sandbox nor the CLI.
//
//   const compiled = compileAutomation(automation, 'deal', workspace);
//   compiled.fires({ trigger: 'updated', before, after })    → boolean (fast)
//   compiled.explain({ trigger: 'updated', before, after })  → each condition's verdict
//
// When an automation fires:
// - `enabled: false` never fires.
// - `update` fires on `updated` writes; `lifecycle` fires on `created` (and `restored`: the
//   record comes back) when `on_create`, on `deleted` when `on_delete`.
// - with `list_id`, only for records that are members of that list (after the write; for a
//   deletion, before it).
// - `update`: the changeset holds: its entries, combined by `combinator` (AND by default;
//   no entry: any update), each hold when every slug in them changed in the write (its
//   value before and after differ) and its `from` conditions hold on the value before and
//   its `to` conditions on the value after, with the record-query comparators
//   (src/filter/compare.ts). Then the optional `state` holds on the record after the write.
// - `lifecycle`: the `state` holds on the created (or restored) record, or on the record as
//   it was before its deletion.
// - `state` entries are record-query filter entries; their paths may follow references
//   (`organization.industry`, up to 4 slugs) through records the workspace reads back.
// - a condition that no longer reads (its property or option was deleted since the
//   automation was saved) holds for no record.

import { isDeepStrictEqual } from 'node:util';
import {
  type Comparison,
  ComparisonProblem,
  compileComparison,
  holds,
  holdsForValue,
  type OptionSource,
  valuePredicate,
} from '../filter/compare.ts';
import {
  lookUpOption,
  type OptionTable,
  optionRankIn,
  optionsShownOn,
  optionTable,
} from '../filter/options.ts';
import { ownValueOf, reachAlong } from '../filter/reach.ts';
import { RecordObjectType } from '../generated/enums.ts';
import type {
  AutomationProblem,
  AutomationSpec,
  Change,
  Combinator,
  ComparisonSpec,
  DefinitionData,
  OptionData,
  RecordData,
  Trigger,
  Workspace,
} from './types.ts';

/** Longest dot path a state condition follows (deal → contact.organization.name is 3). */
export const MAX_PATH_STEPS = 4;

// ---------------------------------------------------------------- verdicts

/** Why an automation does not fire before any condition is read. */
export interface Gate {
  readonly code: 'disabled' | 'trigger' | 'list';
  readonly message: string;
}

/** One condition of the automation, the values it compared, and whether it held. */
export interface ConditionVerdict {
  /** Where it sits in the automation: `changeset.filter[0].stage.to.=`, `state.filter[1].amount.>`. */
  readonly field: string;
  /** The slug or dot path. */
  readonly path: string;
  /** `changed`: the value differs before and after; `from`/`to`/`state`: a comparison. */
  readonly test: 'changed' | 'from' | 'to' | 'state';
  /** The comparison's operator and operand (absent for `changed`). */
  readonly operator?: string;
  readonly operand?: unknown;
  /**
   * The values compared: `changed`: [before, after]; `from`: [the value before]; `to`: [the
   * value after]; `state`: one value per record the path reached (undefined when unset).
   */
  readonly values: readonly unknown[];
  readonly holds: boolean;
  /** Set when the condition no longer reads (its property or option was deleted). */
  readonly problem?: string;
}

export interface EntryVerdict {
  /** `changeset.filter[0]`. */
  readonly field: string;
  readonly holds: boolean;
  readonly conditions: readonly ConditionVerdict[];
}

export interface GroupVerdict {
  readonly combinator: Combinator;
  readonly holds: boolean;
  readonly entries: readonly EntryVerdict[];
}

export interface Evaluation {
  readonly fires: boolean;
  readonly trigger: Trigger;
  /** The first gate that stops the automation whatever its conditions say. */
  readonly gate?: Gate;
  /** Update automations: the changeset's verdict. */
  readonly changeset?: GroupVerdict;
  /** The state's verdict, when the automation has one. */
  readonly state?: GroupVerdict;
}

export interface CompiledAutomation {
  /** Problems found while reading the automation against the definitions (empty: none). */
  readonly problems: readonly AutomationProblem[];
  /** Does the automation fire for this write? */
  fires(change: Change): boolean;
  /** The same decision, with the verdict of every condition and the values it compared. */
  explain(change: Change): Evaluation;
}

// ---------------------------------------------------------------- compiling

/** A compiled `operator: value`; `comparison` undefined when it does not read any more. */
interface Test {
  readonly field: string;
  readonly operator: string;
  readonly operand: unknown;
  readonly comparison: Comparison | undefined;
  readonly problem: string | undefined;
}

/** A changeset slug: its value, and its from and to tests. */
interface SlugChange {
  readonly field: string;
  readonly path: string;
  readonly read: (record: RecordData | null) => unknown;
  readonly from: readonly Test[];
  readonly to: readonly Test[];
  /** It changed, and its from and to tests hold (built once from the above). */
  readonly holds: (change: Change) => boolean;
}

/** A state path: the values it reaches, and its tests. */
interface StateCondition {
  readonly field: string;
  readonly path: string;
  readonly reach: (record: RecordData) => unknown[];
  readonly tests: readonly Test[];
  /** Every test holds on the record (built once from the above). */
  readonly holds: (record: RecordData) => boolean;
}

interface Group<T> {
  readonly combinator: Combinator;
  readonly entries: readonly { readonly field: string; readonly items: readonly T[] }[];
}

/**
 * Read an automation against the definitions of `objectType` (on its list when it has one).
 * Problems are collected, not thrown: a condition with one holds for no record.
 */
export function compileAutomation(
  automation: AutomationSpec,
  objectType: string,
  workspace: Workspace,
): CompiledAutomation {
  const problems: AutomationProblem[] = [];
  const listId = automation.list_id ?? null;
  const resolver = new PathResolver(workspace, objectType, listId, problems);
  const changeset =
    automation.kind === 'update' && isObject(automation.changeset)
      ? compileGroup(automation.changeset, 'changeset', (entry, at) =>
          Object.entries(entry).map(([slug, sides]) =>
            compileSlugChange(resolver, slug, sides, `${at}.${slug}`),
          ),
        )
      : undefined;
  const state = isObject(automation.state)
    ? compileGroup(automation.state, 'state', (entry, at) =>
        Object.entries(entry).map(([path, spec]) =>
          compileStateCondition(resolver, workspace, path, spec, `${at}.${path}`),
        ),
      )
    : undefined;
  const rules = new Rules(automation, objectType, changeset, state);
  // Functions, not methods: a caller may take them off the object.
  return {
    problems,
    fires: (change) => rules.fires(change),
    explain: (change) => rules.explain(change),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compileGroup<T>(
  spec: { readonly combinator?: Combinator; readonly filter: readonly unknown[] },
  part: 'changeset' | 'state',
  items: (entry: Record<string, unknown>, at: string) => T[],
): Group<T> {
  const filter = Array.isArray(spec.filter) ? spec.filter : [];
  return {
    combinator: spec.combinator === 'OR' ? 'OR' : 'AND',
    entries: filter.map((entry, i) => {
      const field = `${part}.filter[${i}]`;
      return { field, items: isObject(entry) ? items(entry, field) : [] };
    }),
  };
}

function compileSlugChange(
  resolver: PathResolver,
  slug: string,
  sides: unknown,
  field: string,
): SlugChange {
  const steps = resolver.resolve(slug, field, false);
  const def = steps?.[0];
  const read = (record: RecordData | null) =>
    record === null ? undefined : ownValueOf(record, slug, def === undefined ? null : def.list_id);
  const spec = isObject(sides) ? sides : {};
  const tests = (side: 'from' | 'to') =>
    compileTests(resolver, def, spec[side], `${field}.${side}`, resolver.listId);
  const from = tests('from');
  const to = tests('to');
  const fromHolds = allHold(from);
  const toHolds = allHold(to);
  const holds = (change: Change) => {
    const before = read(change.before);
    const after = read(change.after);
    return valueChanged(before, after) && fromHolds(before) && toHolds(after);
  };
  return { field, path: slug, read, from, to, holds };
}

/** One test of a value that every test of `tests` holds (none that no longer reads). */
function allHold(tests: readonly Test[]): (value: unknown) => boolean {
  const predicates: ((value: unknown) => boolean)[] = [];
  for (const t of tests) {
    if (t.comparison === undefined) return () => false;
    predicates.push(valuePredicate(t.comparison));
  }
  if (predicates.length === 0) return () => true;
  if (predicates.length === 1) return predicates[0]!;
  return (value) => predicates.every((p) => p(value));
}

function compileStateCondition(
  resolver: PathResolver,
  workspace: Workspace,
  path: string,
  spec: unknown,
  field: string,
): StateCondition {
  const steps = resolver.resolve(path, field, true);
  const last = steps?.[steps.length - 1];
  const listId = steps !== undefined && steps.length === 1 ? resolver.listId : null;
  const tests = compileTests(resolver, last, spec, field, listId);
  if (steps === undefined) {
    return { field, path, reach: () => [undefined], tests, holds: () => false };
  }
  const reach = reachOf(workspace, steps);
  let test: (record: RecordData) => boolean;
  if (steps.length === 1) {
    // The record's own value: read it directly, test it without an array.
    const each = allHold(tests);
    const { slug, list_id: ownList } = steps[0]!;
    test = (record) => each(ownValueOf(record, slug, ownList));
  } else {
    const comparisons = tests.map((t) => t.comparison);
    test = comparisons.some((c) => c === undefined)
      ? () => false
      : (record) => {
          const reached = reach(record);
          return comparisons.every((c) => holds(c!, reached));
        };
  }
  return { field, path, reach, tests, holds: test };
}

function compileTests(
  resolver: PathResolver,
  def: DefinitionData | undefined,
  spec: unknown,
  field: string,
  listId: string | null,
): Test[] {
  if (!isObject(spec)) return [];
  const tests: Test[] = [];
  for (const [operator, operand] of Object.entries(spec as ComparisonSpec)) {
    const at = `${field}.${operator}`;
    if (def === undefined) {
      // The path did not resolve (its problem is recorded once, on the path).
      tests.push({
        field: at,
        operator,
        operand,
        comparison: undefined,
        problem: 'the property is unknown',
      });
      continue;
    }
    try {
      const comparison = compileComparison(def, optionsOf(def, listId), operator, operand, at);
      tests.push({ field: at, operator, operand, comparison, problem: undefined });
    } catch (err) {
      if (!(err instanceof ComparisonProblem)) throw err;
      resolver.problems.push({ field: err.field, code: err.code, message: err.detail });
      tests.push({ field: at, operator, operand, comparison: undefined, problem: err.detail });
    }
  }
  return tests;
}

/** The options a select operand of `def` may name, as shown on `listId`. */
function optionsOf(def: DefinitionData, listId: string | null): OptionSource {
  const all: readonly OptionData[] = def.options ?? [];
  const shown = optionsShownOn(all, listId);
  let table: OptionTable<OptionData> | undefined;
  return {
    find: (text) => {
      table ??= optionTable(shown);
      return lookUpOption(table, text);
    },
    shown: () => shown,
    rank: (slug) => optionRankIn(all, slug),
  };
}

/** The values a path reaches from a record: one per record reached (undefined when unset). */
function reachOf(
  workspace: Workspace,
  steps: readonly DefinitionData[],
): (record: RecordData) => unknown[] {
  return reachAlong(
    steps.map((def) => ({ slug: def.slug, listId: def.list_id, target: referencedType(def.type) })),
    (type, id) => workspace.record(type, id),
  );
}

/** The object type a reference type points at: `ref_organization` → `organization`. */
export function referencedType(type: string): string {
  return type.replace(/^(multi)?ref_/, '');
}

function isReferenceType(type: string): boolean {
  return type.startsWith('ref_') || type.startsWith('multiref_');
}

const RECORD_TYPES: readonly string[] = RecordObjectType;

/** Resolves slugs and dot paths against the definitions, recording each problem once. */
class PathResolver {
  readonly listId: string | null;
  readonly problems: AutomationProblem[];
  private readonly workspace: Workspace;
  private readonly objectType: string;
  private readonly maps = new Map<string, ReadonlyMap<string, DefinitionData> | undefined>();

  constructor(
    workspace: Workspace,
    objectType: string,
    listId: string | null,
    problems: AutomationProblem[],
  ) {
    this.workspace = workspace;
    this.objectType = objectType;
    this.listId = listId;
    this.problems = problems;
  }

  /**
   * The definitions along `path`, or undefined when it leads nowhere (the problem is
   * recorded). Types whose definitions are unknown take any slug as a text property.
   */
  resolve(path: string, field: string, dotPaths: boolean): DefinitionData[] | undefined {
    const parts = path.split('.');
    if (!dotPaths && parts.length > 1) {
      return this.problem(
        field,
        'invalid_path',
        `'${path}': a changeset names the record's own properties; dot paths are for state.`,
      );
    }
    if (parts.some((p) => p === '') || parts.length > MAX_PATH_STEPS) {
      return this.problem(
        field,
        'invalid_path',
        `'${path}' is not a property slug or a dot path of at most ${MAX_PATH_STEPS} slugs (like organization.name).`,
      );
    }
    const steps: DefinitionData[] = [];
    let type = this.objectType;
    let listId = this.listId;
    for (const [i, slug] of parts.entries()) {
      const known = this.definitions(type, listId);
      let def: DefinitionData | undefined;
      if (known === undefined) def = { slug, type: 'str', list_id: null };
      else {
        def = known.get(slug);
        if (def === undefined) {
          const where = listId === null ? '' : ` on list ${listId}`;
          return this.problem(
            field,
            'unknown_property',
            `${type} has no property '${slug}'${where}. Known properties: ${[...known.keys()].join(', ') || '(none)'}.`,
          );
        }
      }
      steps.push(def);
      if (i === parts.length - 1) break;
      const target = referencedType(def.type);
      if (!isReferenceType(def.type) || !RECORD_TYPES.includes(target)) {
        const why = isReferenceType(def.type)
          ? `it references ${target} records, which the API does not serve`
          : `it has type ${def.type}; dot paths only follow ref_ and multiref_ properties`;
        return this.problem(
          field,
          'invalid_path',
          `'${path}' cannot follow '${slug}' of ${type}: ${why}.`,
        );
      }
      type = target;
      listId = null;
    }
    return steps;
  }

  private definitions(type: string, listId: string | null) {
    const key = `${type}\u0000${listId ?? ''}`;
    if (!this.maps.has(key)) {
      const list = this.workspace.definitions(type, listId);
      this.maps.set(key, list === undefined ? undefined : new Map(list.map((d) => [d.slug, d])));
    }
    return this.maps.get(key);
  }

  private problem(field: string, code: string, message: string): undefined {
    this.problems.push({ field, code, message });
    return undefined;
  }
}

// ---------------------------------------------------------------- evaluating

function testHolds(test: Test, value: unknown): boolean {
  return test.comparison !== undefined && holdsForValue(test.comparison, value);
}

/** Did a value change? Primitives compare at once; arrays and objects by their contents. */
export function valueChanged(before: unknown, after: unknown): boolean {
  if (before === after) return false;
  if (
    typeof before !== 'object' ||
    typeof after !== 'object' ||
    before === null ||
    after === null
  ) {
    return true;
  }
  return !isDeepStrictEqual(before, after);
}

/** Every slug of a changeset entry changed, and its from and to tests hold. */
function slugsHold(items: readonly SlugChange[], change: Change): boolean {
  for (let i = 0; i < items.length; i++) if (!items[i]!.holds(change)) return false;
  return true;
}

/** Every condition of a state entry holds on the record. */
function conditionsHold(items: readonly StateCondition[], record: RecordData): boolean {
  for (let i = 0; i < items.length; i++) if (!items[i]!.holds(record)) return false;
  return true;
}

function combine(combinator: Combinator, verdicts: readonly boolean[]): boolean {
  return combinator === 'OR' ? verdicts.some(Boolean) : verdicts.every(Boolean);
}

class Rules {
  private readonly automation: AutomationSpec;
  private readonly objectType: string;
  private readonly changeset: Group<SlugChange> | undefined;
  private readonly state: Group<StateCondition> | undefined;
  /** The gates, read once: the triggers it fires on (none when disabled), and its list. */
  private readonly onUpdated: boolean;
  private readonly onCreated: boolean;
  private readonly onDeleted: boolean;
  private readonly listId: string | null;
  /** An update automation whose changeset has entries to test. */
  private readonly testsChangeset: boolean;

  constructor(
    automation: AutomationSpec,
    objectType: string,
    changeset: Group<SlugChange> | undefined,
    state: Group<StateCondition> | undefined,
  ) {
    this.automation = automation;
    this.objectType = objectType;
    this.changeset = changeset;
    this.state = state;
    const enabled = automation.enabled !== false;
    const update = automation.kind === 'update';
    this.onUpdated = enabled && update;
    this.onCreated = enabled && !update && automation.on_create === true;
    this.onDeleted = enabled && !update && automation.on_delete === true;
    this.listId = automation.list_id ?? null;
    this.testsChangeset = update && changeset !== undefined && changeset.entries.length > 0;
  }

  /** The gates, without their messages: enabled, the trigger fits, a member of the list. */
  private passes(change: Change): boolean {
    const { trigger } = change;
    if (
      !(trigger === 'updated'
        ? this.onUpdated
        : trigger === 'deleted'
          ? this.onDeleted
          : this.onCreated)
    ) {
      return false;
    }
    const { listId } = this;
    return listId === null || this.subject(change).lists?.[listId] !== undefined;
  }

  /** The first gate that stops the automation for this change, if any. */
  gate(change: Change): Gate | undefined {
    if (this.passes(change)) return undefined;
    const a = this.automation;
    if (a.enabled === false) {
      return { code: 'disabled', message: 'The automation is disabled: it never fires.' };
    }
    const fitting =
      a.kind === 'update'
        ? change.trigger === 'updated'
        : change.trigger === 'deleted'
          ? a.on_delete === true
          : change.trigger !== 'updated' && a.on_create === true;
    if (!fitting) {
      const on =
        a.kind === 'update'
          ? 'update automations fire on updates'
          : `this lifecycle automation fires on ${[a.on_create === true ? 'create (and restore)' : '', a.on_delete === true ? 'delete' : ''].filter(Boolean).join(' and ') || 'neither create nor delete (on_create and on_delete are off)'}`;
      return { code: 'trigger', message: `The record was ${change.trigger}; ${on}.` };
    }
    const listId = a.list_id ?? null;
    if (listId !== null && this.subject(change).lists?.[listId] === undefined) {
      return {
        code: 'list',
        message: `The ${this.objectType} record ${change.after.id} is not a member of list ${listId}, which the automation is limited to.`,
      };
    }
    return undefined;
  }

  fires(change: Change): boolean {
    if (!this.passes(change)) return false;
    if (this.testsChangeset && !this.changesetHolds(change)) return false;
    return this.state === undefined || this.stateHolds(this.subject(change));
  }

  explain(change: Change): Evaluation {
    const gate = this.gate(change);
    const changeset = this.automation.kind === 'update' ? this.explainChangeset(change) : undefined;
    const state = this.state === undefined ? undefined : this.explainState(this.subject(change));
    const fires = gate === undefined && (changeset?.holds ?? true) && (state?.holds ?? true);
    const out: { -readonly [K in keyof Evaluation]: Evaluation[K] } = {
      fires,
      trigger: change.trigger,
    };
    if (gate !== undefined) out.gate = gate;
    if (changeset !== undefined) out.changeset = changeset;
    if (state !== undefined) out.state = state;
    return out;
  }

  /** The record the state is read on: as it was before a deletion, else after the write. */
  private subject(change: Change): RecordData {
    return change.trigger === 'deleted' && change.before !== null ? change.before : change.after;
  }

  private changesetHolds(change: Change): boolean {
    const group = this.changeset!;
    const any = group.combinator === 'OR';
    for (const entry of group.entries) {
      if (slugsHold(entry.items, change) === any) return any;
    }
    return !any;
  }

  private stateHolds(record: RecordData): boolean {
    const group = this.state!;
    if (group.entries.length === 0) return true;
    const any = group.combinator === 'OR';
    for (const entry of group.entries) {
      if (conditionsHold(entry.items, record) === any) return any;
    }
    return !any;
  }

  private explainChangeset(change: Change): GroupVerdict {
    const group = this.changeset ?? { combinator: 'AND' as const, entries: [] };
    const entries = group.entries.map((entry): EntryVerdict => {
      const conditions: ConditionVerdict[] = [];
      for (const slug of entry.items) {
        const before = slug.read(change.before);
        const after = slug.read(change.after);
        conditions.push({
          field: slug.field,
          path: slug.path,
          test: 'changed',
          values: [before, after],
          holds: valueChanged(before, after),
        });
        for (const [side, value, tests] of [
          ['from', before, slug.from],
          ['to', after, slug.to],
        ] as const) {
          for (const t of tests)
            conditions.push(verdictOf(t, slug.path, side, [value], testHolds(t, value)));
        }
      }
      return entryVerdict(entry.field, conditions);
    });
    return groupVerdict(group.combinator, entries);
  }

  private explainState(record: RecordData): GroupVerdict {
    const group = this.state!;
    const entries = group.entries.map((entry): EntryVerdict => {
      const conditions: ConditionVerdict[] = [];
      for (const c of entry.items) {
        const reached = c.reach(record);
        for (const t of c.tests) {
          const ok = t.comparison !== undefined && holds(t.comparison, reached);
          conditions.push(verdictOf(t, c.path, 'state', reached, ok));
        }
      }
      return entryVerdict(entry.field, conditions);
    });
    return groupVerdict(group.combinator, entries);
  }
}

function entryVerdict(field: string, conditions: ConditionVerdict[]): EntryVerdict {
  return { field, holds: conditions.every((c) => c.holds), conditions };
}

/** A group holds when its entries do, combined by its combinator (no entry: it holds). */
function groupVerdict(combinator: Combinator, entries: EntryVerdict[]): GroupVerdict {
  return {
    combinator,
    holds:
      entries.length === 0 ||
      combine(
        combinator,
        entries.map((e) => e.holds),
      ),
    entries,
  };
}

function verdictOf(
  test: Test,
  path: string,
  kind: 'from' | 'to' | 'state',
  values: readonly unknown[],
  ok: boolean,
): ConditionVerdict {
  const verdict: ConditionVerdict = {
    field: test.field,
    path,
    test: kind,
    operator: test.operator,
    operand: test.operand,
    values,
    holds: ok,
  };
  return test.problem === undefined ? verdict : { ...verdict, problem: test.problem };
}

// ---------------------------------------------------------------- what happened

/** The event name of a write: `deal.updated`, `contact.created`, `deal.deleted`. */
export function eventName(objectType: string, trigger: Trigger): string {
  return `${objectType}.${trigger}`;
}

/**
 * The values a write changed, as `{ slug: { from, to } }` (null for no value): the record's
 * workspace values, and with `listId` that list's values too. A created record's values all
 * come from null; a deletion or a restore changes none.
 */
export function changesOf(
  change: Change,
  listId: string | null = null,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  if (change.trigger === 'deleted' || change.trigger === 'restored') return out;
  const diff = (
    before: Readonly<Record<string, unknown>> | undefined,
    after: Readonly<Record<string, unknown>> | undefined,
  ) => {
    const slugs = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
    for (const slug of slugs) {
      const from = before?.[slug] ?? null;
      const to = after?.[slug] ?? null;
      if (valueChanged(from, to)) out[slug] = { from, to };
    }
  };
  diff(change.before?.default, change.after.default);
  if (listId !== null) diff(change.before?.lists?.[listId], change.after.lists?.[listId]);
  return out;
}
