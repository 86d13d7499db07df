// Compiled automations kept for reuse, per store, across definition changes and resets.
// Compiling an automation (src/automation-engine/evaluate.ts) is quick, but each compile makes new
// functions, and Node optimises the code that runs them on every write (the firing loop,
// the evaluator) for the functions it has seen: when those are dropped (a reset, a change
// of automations or definitions dropped every compile) that code is thrown away and
// optimised again, which cost an import of 20,000 rows more than the rest of firing (see
// bench/sandbox-automations.mjs). So a compile is kept, and an automation whose conditions,
// and the definitions they were read against, are the same as one compiled before is given
// that compile again: a test suite that resets the sandbox and makes the same automations,
// or a definition change that leaves an automation's properties as they were, keeps it.
//
// An entry is found by the team, the object type and the fields that decide firing (kind,
// changeset, state, enabled, on_create, on_delete, list_id: not the name, id or actions), and
// is used only while every definition list the compile read is the same (as canonical JSON)
// as when it compiled. Referenced records are read live, from the same store.

import { type CompiledAutomation, compileAutomation } from '../../../automation-engine/evaluate.ts';
import type { Workspace } from '../../../automation-engine/types.ts';
import { canonicalJson } from '../../../util/canonical-json.ts';
import type { StoredAutomation } from './types.ts';

/** Compiles kept at most (the least recently used go first). */
export const COMPILES_KEPT = 256;

interface Entry {
  /** The definition lists the compile read, as canonical JSON, by type and list. */
  readonly reads: ReadonlyMap<string, string>;
  readonly compiled: CompiledAutomation;
}

export class CompiledAutomations {
  /** One entry per key, least recently used first. */
  private readonly entries = new Map<string, Entry>();

  /** `automation` compiled against `workspace` (its team's, in this cache's store). */
  of(automation: StoredAutomation, workspace: Workspace): CompiledAutomation {
    const key = canonicalJson([
      automation.team_id,
      automation.object_type,
      automation.kind,
      automation.changeset,
      automation.state,
      automation.enabled,
      automation.on_create,
      automation.on_delete,
      automation.list_id,
    ]);
    const kept = this.entries.get(key);
    // Used now: it goes last (or is replaced when the definitions changed).
    this.entries.delete(key);
    if (kept !== undefined && readsSame(kept, workspace)) {
      this.entries.set(key, kept);
      return kept.compiled;
    }
    const reads = new Map<string, string>();
    const recording: Workspace = {
      definitions: (type, listId) => {
        const definitions = workspace.definitions(type, listId);
        reads.set(readKey(type, listId), definitionsJson(definitions));
        return definitions;
      },
      record: (type, id) => workspace.record(type, id),
    };
    const compiled = compileAutomation(automation, automation.object_type, recording);
    this.entries.set(key, { reads, compiled });
    if (this.entries.size > COMPILES_KEPT) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    return compiled;
  }
}

/**
 * A definition list as canonical JSON: made once per list (the properties model hands out
 * the same list until a definition changes), so checking hundreds of kept compiles against
 * it costs a look-up each.
 */
const jsonOfList = new WeakMap<object, string>();
function definitionsJson(definitions: readonly unknown[] | undefined): string {
  if (definitions === undefined) return 'null';
  let json = jsonOfList.get(definitions);
  if (json === undefined) {
    json = canonicalJson(definitions);
    jsonOfList.set(definitions, json);
  }
  return json;
}

function readKey(type: string, listId: string | null): string {
  return `${type}\u0000${listId ?? ''}`;
}

/** The definitions `entry` was compiled against are the workspace's now. */
function readsSame(entry: Entry, workspace: Workspace): boolean {
  for (const [key, json] of entry.reads) {
    const [type, listId] = key.split('\u0000') as [string, string];
    if (definitionsJson(workspace.definitions(type, listId === '' ? null : listId)) !== json) {
      return false;
    }
  }
  return true;
}
