// `ws automations test TYPE AUTOMATION --record ID (--set slug=value… | --before F --after F)`:
// would this automation fire for this change, and why. Writes nothing: the record (and the
// records its --where dot-paths reach) is read from the service, the change is made in
// memory, and src/automation-engine/evaluate.ts (the evaluator the ws sandbox fires automations
// with) gives each condition's verdict with the values it compared. Exit 0: it fires; 1: not.
import type { Automation } from '../../api/automations.ts';
import { RECORD_TYPES, type RecordType } from '../../api/object-types.ts';
import { getRecord } from '../../api/records.ts';
import {
  type ConditionVerdict,
  compileAutomation,
  type Evaluation,
  referencedType,
} from '../../automation-engine/evaluate.ts';
import type { RecordData, Trigger, Values } from '../../automation-engine/types.ts';
import { formatChange } from '../../automations-as-code/language.ts';
import { addNeeds, emptyNeeds, loadLookups } from '../../automations-as-code/lookups.ts';
import { ApiError, ExitCode, NotFoundError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { formatComparison } from '../../query/where.ts';
import { shellWord } from '../../util/shell.ts';
import { writeFormOf } from '../../values/write-form.ts';
import { parseJsonOrYaml, readInput } from '../common/input.ts';
import { buildWrite } from '../common/record-values.ts';
import { automationType, resolveAutomation } from './shared.ts';

export interface TestOptions {
  type: string;
  automation: string;
  record: string;
  set: string[];
  before: string | undefined;
  after: string | undefined;
  event: 'created' | 'updated' | 'deleted' | undefined;
}

/** The API's record as the evaluator reads it: values in write form (references as ids). */
function recordData(id: string, body: { default?: unknown; list?: unknown }): RecordData {
  const lists: Record<string, Values> = {};
  if (body.list !== null && typeof body.list === 'object' && !Array.isArray(body.list)) {
    for (const [listId, values] of Object.entries(body.list as Record<string, unknown>))
      if (values !== null && typeof values === 'object')
        lists[listId] = writeFormOf(values as Record<string, unknown>);
  }
  return { id, default: writeFormOf(body.default as Record<string, unknown>), lists };
}

/** A --before or --after file: values by slug, or a record (`{ default: {…}, list: {…} }`). */
async function recordFile(deps: Deps, file: string, flag: string, id: string): Promise<RecordData> {
  const value = await parseJsonOrYaml(await readInput(file, deps, flag));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      `${flag} ${file} must hold the record's values by slug (a mapping), or { default: {…} }.`,
    );
  }
  const v = value as Record<string, unknown>;
  const isRecord = 'default' in v && typeof v['default'] === 'object';
  return recordData(id, isRecord ? v : { default: v });
}

/**
 * Records that dot-paths of the state reach from `records`, read from the service once each,
 * step by step along each path.
 */
async function referencedRecords(
  deps: Deps,
  a: Automation,
  type: string,
  records: readonly RecordData[],
  definitions: (
    type: string,
    listId: string | null,
  ) => { slug: string; type: string }[] | undefined,
): Promise<Map<string, RecordData>> {
  const client = await deps.client();
  const found = new Map<string, RecordData>();
  const key = (t: string, id: string) => `${t}\u0000${id}`;
  const paths = (a.state?.filter ?? [])
    .flatMap((e) => Object.keys(e ?? {}))
    .filter((p) => p.includes('.'));
  for (const path of paths) {
    let frontier: { type: string; listId: string | null; record: RecordData }[] = records.map(
      (r) => ({
        type,
        listId: a.list_id ?? null,
        record: r,
      }),
    );
    const slugs = path.split('.');
    for (const slug of slugs.slice(0, -1)) {
      const next: typeof frontier = [];
      for (const { type: t, listId, record } of frontier) {
        const def = definitions(t, listId)?.find((d) => d.slug === slug);
        if (def === undefined || !/^(multi)?ref_/.test(def.type)) continue;
        const target = referencedType(def.type);
        if (!(RECORD_TYPES as readonly string[]).includes(target)) continue;
        const value = record.lists?.[listId ?? '']?.[slug] ?? record.default[slug];
        const ids = (Array.isArray(value) ? value : value == null ? [] : [value]).filter(
          (x): x is string => typeof x === 'string',
        );
        for (const id of ids) {
          let got = found.get(key(target, id));
          if (got === undefined) {
            try {
              const answer = await getRecord(client, target as RecordType, id, {
                signal: deps.signal,
              });
              got = recordData(id, answer.record);
              found.set(key(target, id), got);
            } catch (err) {
              // A reference to a record that is gone reaches nothing, as in the evaluator.
              if (err instanceof ApiError && err.status === 404) continue;
              throw err;
            }
          }
          next.push({ type: target, listId: null, record: got });
        }
      }
      frontier = next;
    }
  }
  return found;
}

const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));

/** One condition as the flag language writes it, and the values it compared. */
export function verdictLine(c: ConditionVerdict): { condition: string; compared: string } {
  switch (c.test) {
    case 'changed':
      return {
        condition: `${c.path} changed`,
        compared: `${show(c.values[0] ?? null)} → ${show(c.values[1] ?? null)}`,
      };
    case 'from':
    case 'to':
      return {
        condition: formatChange(c.path, c.test, c.operator!, c.operand),
        compared: `${c.test === 'from' ? 'before' : 'after'}: ${show(c.values[0])}`,
      };
    default:
      return {
        condition: formatComparison(c.path, c.operator!, c.operand),
        compared:
          c.values.length === 1
            ? show(c.values[0])
            : c.values.length === 0
              ? '(no record reached)'
              : c.values.map(show).join(', '),
      };
  }
}

/** The verdicts as lines for people: each group, each condition with ✓ or ✗. */
function verdictText(deps: Deps, a: Automation, e: Evaluation, recordId: string): string {
  const c = deps.io.out;
  const mark = (holds: boolean) => (holds ? c.green('✓') : c.red('✗'));
  const lines: string[] = [
    `${e.fires ? c.green('fires') : c.red('does not fire')}: ${a.object_type ?? ''} automation "${a.name}" for ${e.trigger === 'created' ? 'the creation' : e.trigger === 'deleted' ? 'the deletion' : 'the update'} of ${recordId}`,
  ];
  if (e.gate) lines.push(`  ${mark(false)} ${e.gate.message}`);
  const group = (title: string, g: Evaluation['changeset']) => {
    if (g === undefined) return;
    const many = g.entries.length > 1;
    lines.push(
      `  ${mark(g.holds)} ${title}${many ? ` (${g.combinator === 'OR' ? 'any' : 'all'} of ${g.entries.length})` : ''}`,
    );
    for (const entry of g.entries) {
      for (const cond of entry.conditions) {
        const { condition, compared } = verdictLine(cond);
        lines.push(
          `    ${mark(cond.holds)} ${condition}    ${c.dim(compared)}${cond.problem ? `  (${cond.problem})` : ''}`,
        );
      }
    }
  };
  group('the change', e.changeset);
  group('the record', e.state);
  return `${lines.join('\n')}\n`;
}

/**
 * No change given for an update: what to give, in the words of this automation (the event
 * a lifecycle automation fires on; a property its changeset names).
 */
function missingChange(type: string, opts: TestOptions, a: Automation): UsageError {
  const command = `ws automations test ${type} ${shellWord(opts.automation)} --record ${opts.record}`;
  if (a.kind === 'lifecycle') {
    const events = [a.on_create ? 'created' : '', a.on_delete ? 'deleted' : ''].filter(Boolean);
    return new UsageError(
      `"${a.name}" fires when a ${type} record is ${events.length > 0 ? events.join(' or ') : 'created or deleted (it has neither on)'}, not on an update: give the event.`,
      `e.g. ${command} --event ${events[0] ?? 'created'}`,
    );
  }
  const slug = Object.keys(a.changeset?.filter?.[0] ?? {})[0];
  return new UsageError(
    'Give the change: --set slug=value (repeatable), or --before FILE --after FILE.',
    `e.g. ${command} --set ${slug ?? 'SLUG'}=VALUE`,
  );
}

export async function run(opts: TestOptions, deps: Deps): Promise<void> {
  const type = automationType(opts.type);
  if (!(RECORD_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      `ws automations test reads records, and ${type} records are not served by the API.`,
    );
  }
  const trigger: Trigger = opts.event ?? 'updated';
  if ((opts.before === undefined) !== (opts.after === undefined)) {
    throw new UsageError(
      '--before and --after go together: the record before and after the change.',
    );
  }
  const client = await deps.client();
  const automation = await resolveAutomation(deps, client, type, opts.automation);
  if (trigger === 'updated' && opts.set.length === 0 && opts.before === undefined) {
    throw missingChange(type, opts, automation);
  }
  let before: RecordData;
  let after: RecordData;
  if (opts.before !== undefined && opts.after !== undefined) {
    before = await recordFile(deps, opts.before, '--before', opts.record);
    after = await recordFile(deps, opts.after, '--after', opts.record);
  } else {
    const answer = await getRecord(client, type as RecordType, opts.record, {
      signal: deps.signal,
    }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404)
        throw new NotFoundError(`No ${type} record has the id ${opts.record}.`);
      throw err;
    });
    before = recordData(opts.record, answer.record);
    const write =
      opts.set.length > 0
        ? await buildWrite({ set: opts.set }, deps, type as RecordType)
        : { default: {} };
    after = { ...before, default: { ...before.default, ...writeFormOf(write.default) } };
  }

  const needs = emptyNeeds();
  addNeeds(needs, {}, type, automation);
  const lookups = await loadLookups(deps, needs, false);
  const defs = lookups.workspace();
  const reached = await referencedRecords(deps, automation, type, [before, after], (t, l) =>
    lookups.definitions(t, l),
  );
  const workspace = {
    definitions: defs.definitions,
    record: (t: string, id: string) => reached.get(`${t}\u0000${id}`),
  };
  const compiled = compileAutomation(automation, type, workspace);
  const change =
    trigger === 'created'
      ? { trigger, before: null, after }
      : trigger === 'deleted'
        ? { trigger, before, after: before }
        : { trigger, before, after };
  const evaluation = compiled.explain(change);
  for (const p of compiled.problems) deps.io.warn(`${p.field}: ${p.message}`);

  if (deps.format === 'json' || deps.format === 'ndjson') {
    const doc = {
      automation_id: automation.id,
      automation_name: automation.name,
      record_id: opts.record,
      ...evaluation,
    };
    deps.io.println(deps.format === 'json' ? JSON.stringify(doc, null, 2) : JSON.stringify(doc));
  } else {
    deps.io.write(verdictText(deps, automation, evaluation, opts.record));
  }
  if (!evaluation.fires) {
    throw new WsError(`"${automation.name}" does not fire for this change.`, {
      exitCode: ExitCode.error,
      code: 'not_fired',
      silent: true,
    });
  }
}
