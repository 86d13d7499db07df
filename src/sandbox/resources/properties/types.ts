// What property definitions and their options are: the stored shapes (the wire's fields),
// and what create and patch operations may set. The model (model.ts) keeps them; records
// check values against them (scope.ts); views name them.

import type { components } from '../../../generated/api-types.ts';
import type { PropertyType } from './catalogue.ts';

export interface PropertyOption {
  id: string;
  slug: string;
  /** Display value. */
  value: string | null;
  color_scheme: string | null;
  description: string | null;
  icon: string | null;
  option_group: string | null;
  sort_index: number | null;
  /**
   * A display setting, as on definitions (default true): a disabled option still names a
   * value that records may hold and writes may give.
   */
  enabled: boolean;
  /** null: the option shows on every list the definition shows on. */
  list_id: string | null;
  /** Deprecated mirror of list_id. */
  crm_id: string | null;
}

export interface PropertyDefinition {
  id: string;
  object_type: string;
  slug: string;
  type: PropertyType;
  /** Only value: 'app_stage' (the pipeline stage definition). */
  alias: string | null;
  /** Deprecated mirror of list_id. */
  crm_id: string | null;
  /** null: workspace-global (or a shared default). */
  list_id: string | null;
  locked: boolean;
  name: string | null;
  native: boolean;
  /** Present (possibly empty) exactly on select_str and multiselect_str definitions. */
  options?: PropertyOption[];
  required: boolean;
  role_id: string | null;
  /** null on shared defaults. */
  team_id: string | null;
  icon: string | null;
  /** A display setting: a disabled definition still validates and keeps its values. */
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** An option to create: the create body's fields, its list named by list_id alone. */
export type NewOption = Omit<components['schemas']['OptionCreate'], 'type' | 'crm_id'>;

export interface NewDefinition {
  name: string;
  type: PropertyType;
  slug?: string;
  icon?: string | null;
  /** Omitted or null: workspace-global. */
  list_id?: string | null;
  options?: NewOption[];
  required?: boolean;
  role_id?: string;
  /** Set by the sandbox only (a list template's stage: 'app_stage'); no request sets it. */
  alias?: string | null;
}

export interface DefinitionChanges {
  name?: string;
  icon?: string | null;
  enabled?: boolean;
  required?: boolean;
  /** Moves the definition to another list (null: workspace-global). */
  list_id?: string | null;
}

/** The fields of an option that create and patch bodies set (besides list_id). */
export const OPTION_FIELDS = [
  'value',
  'slug',
  'color_scheme',
  'description',
  'icon',
  'option_group',
  'sort_index',
  'enabled',
] as const;

export type OptionChanges = Partial<Omit<PropertyOption, 'id' | 'crm_id'>> & { value?: string };
