// What a triggered automation is (api.md, "Triggered automation"), as plain data: the shapes
// of the contract (src/generated/api-types.ts), and what the evaluator reads of a workspace
// (property definitions, records). Shared by the sandbox, which runs automations, and the
// CLI, which checks and tests them; it imports neither.

import type { components } from '../generated/api-types.ts';

type Schemas = components['schemas'];

export type AutomationKind = Schemas['AutomationKind'];
export type Combinator = Schemas['Combinator'];
export type ActionItem = Schemas['ActionItem'];
export type WaitAction = Schemas['WaitAction'];
export type EmailAction = Schemas['EmailAction'];
export type LinkedinAction = Schemas['LinkedinAction'];

/** `{ operator: value }`: one or more conditions that must all hold. */
export type ComparisonSpec = Readonly<Record<string, unknown>>;

/** `{ slug: { from?, to? } }`: an empty body for a slug matches any change of it. */
export type ChangesetEntry = Readonly<
  Record<string, { readonly from?: ComparisonSpec; readonly to?: ComparisonSpec }>
>;

/** `{ path: { operator: value } }`: paths may follow references (`organization.industry`). */
export type StateEntry = Readonly<Record<string, ComparisonSpec>>;

export interface Changeset {
  readonly combinator?: Combinator;
  readonly filter: readonly ChangesetEntry[];
}

export interface StateFilter {
  readonly combinator?: Combinator;
  readonly filter: readonly StateEntry[];
}

/** An automation as written (create, replace) or read: what the evaluator reads of it. */
export interface AutomationSpec {
  readonly kind: AutomationKind;
  readonly name?: string;
  readonly actions?: readonly ActionItem[] | undefined;
  readonly changeset?: Changeset | null | undefined;
  readonly state?: StateFilter | null | undefined;
  /** Default true. */
  readonly enabled?: boolean | undefined;
  readonly on_create?: boolean | null | undefined;
  readonly on_delete?: boolean | null | undefined;
  readonly list_id?: string | null | undefined;
}

/** Property values keyed by slug. */
export type Values = Readonly<Record<string, unknown>>;

/** A record as the evaluator reads it: its values, and its list memberships with theirs. */
export interface RecordData {
  readonly id: string;
  readonly default: Values;
  /** List id → that list's values; a record is a member of the lists it has a key for. */
  readonly lists?: Readonly<Record<string, Values>> | undefined;
}

/** An option of a select definition. */
export interface OptionData {
  readonly id: string;
  readonly slug: string;
  /** Display value. */
  readonly value: string | null;
  /** null (or absent): shown on every list the definition shows on. */
  readonly list_id?: string | null | undefined;
}

/** A property definition as the evaluator reads it (a definition of the API fits). */
export interface DefinitionData {
  readonly id?: string;
  readonly slug: string;
  readonly type: string;
  /** null (or absent): a workspace definition; else that list's own. */
  readonly list_id?: string | null | undefined;
  /** Select definitions: every option, in display order. */
  readonly options?: readonly OptionData[] | undefined;
}

/**
 * What the evaluator reads of a workspace. The sandbox answers from its store; the CLI from
 * the API (definitions listed once, referenced records fetched for dot paths).
 */
export interface Workspace {
  /**
   * The definitions a record of `objectType` shows: the workspace's, plus with `listId` that
   * list's own. undefined when the type's definitions are not known (slugs then go
   * unchecked and values compare as text).
   */
  definitions(objectType: string, listId: string | null): readonly DefinitionData[] | undefined;
  /** A record that a reference names, for dot paths (soft-deleted ones too); else undefined. */
  record(objectType: string, id: string): RecordData | undefined;
}

/** What happened to a record: the write an automation may fire on. */
export type Trigger = 'created' | 'updated' | 'deleted' | 'restored';

export interface Change {
  readonly trigger: Trigger;
  /** The record before the write; null when it was created. */
  readonly before: RecordData | null;
  /** The record after the write (for a deletion: as it was, now deleted). */
  readonly after: RecordData;
}

/** One problem of an automation, at a path inside it (`actions[2].delay_seconds`). */
export interface AutomationProblem {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}
