// What a list is, as the lists model keeps it and the API answers it.

import type { TemplateId } from './templates.ts';

export interface StoredList {
  id: string;
  name: string;
  template_id: TemplateId;
  /** The object type of its records. */
  object_type: string;
  /** Core lists are the workspace's own; the sandbox has none (every list is a template's). */
  core: false;
  /** Its stage definition (alias app_stage). */
  stage_property_id: string | null;
  team_id: string;
  created_at: string;
  updated_at: string;
}

export interface NewList {
  template_id: TemplateId;
  name?: string | undefined;
  object_type?: string | undefined;
}
