// Triggered automations: per team, in creation order, in the store's `automations` slice.
// The model checks an automation against the definitions of its object type (the shared
// checks of src/automation-engine/check.ts), keeps it, and answers which of a team's automations
// a write may fire (enabled ones, by object type and trigger) with each one compiled once by
// the shared evaluator (src/automation-engine/evaluate.ts) until it or a definition changes (and
// then compiled again only when what it reads changed: compiled.ts).

import { checkAutomation } from '../../../automation-engine/check.ts';
import type { CompiledAutomation } from '../../../automation-engine/evaluate.ts';
import type { Trigger } from '../../../automation-engine/types.ts';
import { AutomationObjectType } from '../../../generated/enums.ts';
import { canonicalJson } from '../../../util/canonical-json.ts';
import { isPlainObject } from '../../../util/guards.ts';
import { entryOf } from '../../../util/maps.ts';
import { invalidRequest } from '../../errors.ts';
import { randomId } from '../../ids.ts';
import { oneOf } from '../../object-types.ts';
import { defineSlice, type SliceContext, SnapshotError, type Store } from '../../store.ts';
import { TypedTeamSlice } from '../../team-slice.ts';
import { stableId } from '../properties/catalogue.ts';
import { CompiledAutomations } from './compiled.ts';
import type { AutomationFields, StoredAutomation } from './types.ts';
import { workspaceOf } from './workspace.ts';

/** The object types of the automation endpoints (api.md, "Object types"). */
export const AUTOMATION_OBJECT_TYPES = AutomationObjectType;

export const isAutomationObjectType = oneOf(AUTOMATION_OBJECT_TYPES);

/** The user every automation of the sandbox is saved by (the sandbox has one user). */
export const SANDBOX_USER_ID = stableId('user', 'sandbox');

const FIELDS = [
  'kind',
  'name',
  'actions',
  'changeset',
  'state',
  'enabled',
  'on_create',
  'on_delete',
  'list_id',
] as const satisfies readonly (keyof AutomationFields)[];

/** An automation a write may fire, and its compiled form (compiled on first use). */
export interface Candidate {
  readonly automation: StoredAutomation;
  /** Set by compiledOf(). */
  compiled: CompiledAutomation | undefined;
}

/** The automations a write of one object type may fire, by trigger (enabled ones only). */
interface Candidates {
  readonly updated: readonly Candidate[];
  readonly created: readonly Candidate[];
  readonly deleted: readonly Candidate[];
}

const NONE: Candidates = { updated: [], created: [], deleted: [] };

export class AutomationsModel extends TypedTeamSlice<StoredAutomation> {
  /**
   * Candidates by team, then object type, each compiled on first use; dropped after any
   * change of automations or of definitions.
   */
  private candidates = new Map<string, Map<string, Candidates>>();
  /** Compiles kept across changes and resets (compiled.ts): reused while they still hold. */
  private readonly compiles = new CompiledAutomations();

  constructor(ctx: SliceContext) {
    super(ctx, {
      base: 'store.slices.automations',
      what: 'automations',
      parse: parseAutomation,
      noun: 'automation',
      path: 'triggered_automations',
    });
  }

  create(
    store: Store,
    teamId: string,
    objectType: string,
    fields: AutomationFields,
  ): StoredAutomation {
    check(store, teamId, objectType, fields);
    const at = this.ctx.clock.iso();
    const automation: StoredAutomation = {
      id: randomId(),
      object_type: objectType,
      ...copyFields(fields),
      team_id: teamId,
      user_id: SANDBOX_USER_ID,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    this.add(automation);
    this.changed();
    this.compiledAhead(store, automation);
    return automation;
  }

  /** Replace every field; the version and updated_at move only when something changed. */
  replace(
    store: Store,
    teamId: string,
    objectType: string,
    id: string,
    fields: AutomationFields,
  ): StoredAutomation {
    const current = this.get(teamId, objectType, id);
    check(store, teamId, objectType, fields);
    if (canonicalJson(pick(current)) === canonicalJson(pick(fields))) return current;
    const next: StoredAutomation = {
      ...current,
      ...copyFields(fields),
      updated_at: this.ctx.clock.iso(),
      version: current.version + 1,
    };
    const list = this.itemsOf(teamId);
    list[list.indexOf(current)] = next;
    this.changed();
    this.compiledAhead(store, next);
    return next;
  }

  remove(teamId: string, objectType: string, id: string): StoredAutomation {
    const automation = this.get(teamId, objectType, id);
    this.drop(automation);
    this.changed();
    return automation;
  }

  /** The enabled automations a `trigger` write of `objectType` may fire, in creation order. */
  candidatesFor(teamId: string, objectType: string, trigger: Trigger): readonly Candidate[] {
    const team = entryOf(this.candidates, teamId, () => new Map());
    const found = entryOf(team, objectType, () => this.buildCandidates(teamId, objectType));
    return trigger === 'updated'
      ? found.updated
      : trigger === 'deleted'
        ? found.deleted
        : found.created;
  }

  /** The candidate's automation compiled against its team's definitions (once). */
  compiledOf(store: Store, candidate: Candidate): CompiledAutomation {
    if (candidate.compiled === undefined) {
      const { automation } = candidate;
      candidate.compiled = this.compiles.of(automation, workspaceOf(store, automation.team_id));
    }
    return candidate.compiled;
  }

  /**
   * Compile a new or replaced automation now, in its own request: the first write after a
   * suite makes hundreds of automations finds them compiled, instead of compiling them all.
   */
  private compiledAhead(store: Store, automation: StoredAutomation): void {
    this.compiles.of(automation, workspaceOf(store, automation.team_id));
  }

  /** Definitions changed: compile again on next use. */
  definitionsChanged(): void {
    this.candidates = new Map();
  }

  private buildCandidates(teamId: string, objectType: string): Candidates {
    const enabled = this.list(teamId, objectType).filter((a) => a.enabled);
    if (enabled.length === 0) return NONE;
    const candidates = enabled.map(
      (automation): Candidate => ({ automation, compiled: undefined }),
    );
    const lifecycle = (on: 'on_create' | 'on_delete') =>
      candidates.filter((c) => c.automation.kind === 'lifecycle' && c.automation[on] === true);
    return {
      updated: candidates.filter((c) => c.automation.kind === 'update'),
      created: lifecycle('on_create'),
      deleted: lifecycle('on_delete'),
    };
  }

  override reset(): void {
    super.reset();
    this.candidates = new Map();
  }

  override load(data: unknown): void {
    super.load(data);
    this.candidates = new Map();
  }

  private changed(): void {
    this.candidates = new Map();
    this.ctx.changed();
  }
}

/** 400 listing every problem of the automation, each on its body field. */
function check(store: Store, teamId: string, objectType: string, fields: AutomationFields): void {
  const workspace = workspaceOf(store, teamId);
  const found = checkAutomation(fields, objectType, workspace, store.clock.nowMs());
  const problems = found.map((p) => ({
    field: `body.${p.field}`,
    code: p.code,
    message: p.message,
  }));
  if (fields.name.trim() === '') {
    problems.unshift({ field: 'body.name', code: 'empty', message: 'name must not be blank.' });
  }
  if (problems.length > 0) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more: see errors)` : '';
    throw invalidRequest(`${first!.field}: ${first!.message}${more}`, problems);
  }
}

function pick(fields: AutomationFields): AutomationFields {
  const out = {} as Record<string, unknown>;
  for (const field of FIELDS) out[field] = fields[field];
  return out as unknown as AutomationFields;
}

function copyFields(fields: AutomationFields): AutomationFields {
  return structuredClone(pick(fields));
}

function parseAutomation(item: unknown, at: string): StoredAutomation {
  if (!isPlainObject(item)) throw new SnapshotError(at, 'must be an object');
  const expect = (field: string, ok: boolean, what: string) => {
    if (!ok) throw new SnapshotError(`${at}.${field}`, `must be ${what}`);
  };
  for (const field of ['id', 'name', 'team_id', 'user_id', 'created_at', 'updated_at']) {
    expect(field, typeof item[field] === 'string', 'a string');
  }
  expect(
    'object_type',
    isAutomationObjectType(String(item['object_type'])),
    `one of ${AUTOMATION_OBJECT_TYPES.join(', ')}`,
  );
  expect('kind', item['kind'] === 'update' || item['kind'] === 'lifecycle', 'update or lifecycle');
  expect(
    'actions',
    Array.isArray(item['actions']) && item['actions'].every(isPlainObject),
    'an array of objects',
  );
  for (const field of ['changeset', 'state']) {
    expect(field, item[field] === null || isPlainObject(item[field]), 'an object or null');
  }
  expect('enabled', typeof item['enabled'] === 'boolean', 'a boolean');
  for (const field of ['on_create', 'on_delete']) {
    expect(field, item[field] === null || typeof item[field] === 'boolean', 'a boolean or null');
  }
  expect(
    'list_id',
    item['list_id'] === null || typeof item['list_id'] === 'string',
    'a string or null',
  );
  const version = item['version'];
  expect(
    'version',
    typeof version === 'number' && Number.isInteger(version) && version >= 1,
    'an integer >= 1',
  );
  return item as unknown as StoredAutomation;
}

export const automationsSlice = defineSlice('automations', (ctx) => new AutomationsModel(ctx));

/** The automations model of `store`. */
export function automationsOf(store: Store): AutomationsModel {
  return store.slice(automationsSlice);
}
