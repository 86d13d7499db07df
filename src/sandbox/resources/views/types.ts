// What a view is: the saved bundle of api.md ("View bundle") as the views model keeps and
// answers it, and the fields a create or patch may set.

export type FilterEntry = Record<string, Record<string, unknown>>;
export type SortEntry = Record<string, 'asc' | 'desc'>;

export interface View {
  id: string;
  object_type: string;
  name: string;
  view_type: string;
  aggregation_prop_def_id: string | null;
  aggregation_type: string | null;
  column_layout: Record<string, unknown> | null;
  combinator: 'AND' | 'OR';
  created_at: string;
  updated_at: string;
  filter: FilterEntry[];
  group_by: string | null;
  group_hidden_option_ids: unknown;
  group_hide_empty: boolean | null;
  group_sort: string | null;
  icon: string | null;
  list_id: string | null;
  /** Empty: every property the object type shows on the view's list. */
  select: string[];
  sort: SortEntry[];
  sort_order: number | null;
  /** Pinned record ids in their order: the view's records show them first. */
  record_order: string[];
  team_id: string;
  user_id: string;
}

/** The fields a request may set (all but name and view_type optional on create). */
export type ViewFields = Partial<
  Omit<
    View,
    'id' | 'object_type' | 'created_at' | 'updated_at' | 'team_id' | 'user_id' | 'record_order'
  >
>;
