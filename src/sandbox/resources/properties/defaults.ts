// The shared default definitions of every object type: the same in every sandbox (ids are
// derived from object type and slug), with team_id and list_id null, native and locked.
// The records resource validates values against them and the demo seed fits them.

import {
  canonicalRole,
  PROPERTY_OBJECT_TYPES,
  type PropertyObjectType,
  type PropertyType,
  roleBySlug,
  slugify,
  stableId,
} from './catalogue.ts';
import type { PropertyDefinition, PropertyOption } from './types.ts';

/** When the shared defaults came to be (their created_at and updated_at). */
export const DEFAULTS_CREATED_AT = '2025-01-01T00:00:00.000Z';

type Opt = [value: string, color: string, slug?: string];

interface Spec {
  slug: string;
  name: string;
  type: PropertyType;
  /** Display value, colour scheme and (default: the slugified value) slug of each option. */
  options?: Opt[];
  alias?: string;
  /** A role slug of the catalogue; default the type's canonical role. */
  role?: string;
}

const str = (slug: string, name: string, role?: string): Spec =>
  role === undefined ? { slug, name, type: 'str' } : { slug, name, type: 'str', role };
const of = (slug: string, name: string, type: PropertyType, role?: string): Spec =>
  role === undefined ? { slug, name, type } : { slug, name, type, role };
const select = (
  slug: string,
  name: string,
  options: Opt[],
  extra: { alias?: string; multi?: boolean } = {},
): Spec => ({
  slug,
  name,
  type: extra.multi === true ? 'multiselect_str' : 'select_str',
  options,
  ...(extra.alias === undefined ? {} : { alias: extra.alias }),
});

const SPECS: Record<PropertyObjectType, Spec[]> = {
  contact: [
    str('name', 'Name'),
    str('email', 'Email', 'email'),
    str('phone', 'Phone', 'phone'),
    str('title', 'Job title'),
    str('company', 'Company'),
    str('city', 'City'),
    select('status', 'Status', [
      ['Lead', 'blue'],
      ['Customer', 'green'],
      ['Churned', 'gray'],
    ]),
    select(
      'tags',
      'Tags',
      [
        ['VIP', 'purple'],
        ['Newsletter', 'yellow'],
        ['Partner', 'teal'],
      ],
      { multi: true },
    ),
    of('birthday', 'Birthday', 'date'),
    of('notes', 'Notes', 'text'),
    of('score', 'Score', 'num'),
    of('subscribed', 'Subscribed', 'bool'),
    of('organization', 'Organization', 'ref_organization'),
  ],
  organization: [
    str('name', 'Name'),
    str('domain', 'Domain', 'url'),
    select('industry', 'Industry', [
      ['Software', 'blue'],
      ['Finance', 'green'],
      ['Healthcare', 'red'],
      ['Retail', 'orange'],
      ['Manufacturing', 'gray'],
      ['Education', 'purple'],
    ]),
    of('employees', 'Employees', 'num'),
    str('website', 'Website', 'url'),
    str('country', 'Country'),
    of('founded', 'Founded', 'date'),
  ],
  deal: [
    str('name', 'Name'),
    of('amount', 'Amount', 'num', 'currency'),
    select(
      'stage',
      'Stage',
      [
        ['Lead', 'gray'],
        ['Qualified', 'blue'],
        ['Proposal', 'yellow'],
        ['Won', 'green'],
        ['Lost', 'red'],
      ],
      { alias: 'app_stage' },
    ),
    of('close_date', 'Close date', 'date'),
    of('probability', 'Probability', 'num', 'percent'),
    of('organization', 'Organization', 'ref_organization'),
    of('contact', 'Contact', 'ref_contact'),
    of('notes', 'Notes', 'text'),
  ],
  identity: [
    str('name', 'Name'),
    str('email', 'Email', 'email'),
    select('provider', 'Provider', [
      ['Email', 'gray'],
      ['LinkedIn', 'blue'],
      ['Twitter', 'teal'],
    ]),
    str('handle', 'Handle'),
    of('contact', 'Contact', 'ref_contact'),
  ],
  action: [
    str('title', 'Title'),
    select('status', 'Status', [
      ['To do', 'gray', 'todo'],
      ['In progress', 'blue'],
      ['Done', 'green'],
    ]),
    select('priority', 'Priority', [
      ['Low', 'gray'],
      ['Medium', 'yellow'],
      ['High', 'red'],
    ]),
    of('due_date', 'Due date', 'date'),
    of('contact', 'Contact', 'ref_contact'),
  ],
  document: [
    str('title', 'Title'),
    str('url', 'URL', 'url'),
    select('kind', 'Kind', [
      ['Contract', 'blue'],
      ['Proposal', 'yellow'],
      ['Invoice', 'green'],
      ['Other', 'gray'],
    ]),
    of('size', 'Size (bytes)', 'num'),
  ],
  event: [
    str('title', 'Title'),
    of('starts_at', 'Starts at', 'date', 'datetime'),
    of('ends_at', 'Ends at', 'date', 'datetime'),
    str('location', 'Location'),
    of('description', 'Description', 'text'),
    of('contact', 'Contact', 'ref_contact'),
  ],
  engagement: [
    str('title', 'Title'),
    select('kind', 'Kind', [
      ['Email', 'blue'],
      ['Call', 'green'],
      ['Meeting', 'purple'],
      ['Note', 'gray'],
    ]),
    of('occurred_at', 'Occurred at', 'date', 'datetime'),
    of('notes', 'Notes', 'text'),
    of('contact', 'Contact', 'ref_contact'),
    of('organization', 'Organization', 'ref_organization'),
  ],
  comment: [
    of('body', 'Body', 'text'),
    str('author', 'Author'),
    of('posted_at', 'Posted at', 'date', 'datetime'),
  ],
  agent_site: [
    str('name', 'Name'),
    str('url', 'URL', 'url'),
    select('status', 'Status', [
      ['Active', 'green'],
      ['Paused', 'gray'],
    ]),
  ],
  ai_chat_thread: [
    str('title', 'Title'),
    of('started_at', 'Started at', 'date', 'datetime'),
    of('summary', 'Summary', 'text'),
    of('contact', 'Contact', 'ref_contact'),
  ],
  ai_chat_message: [
    select('author', 'Author', [
      ['User', 'blue'],
      ['Assistant', 'purple'],
    ]),
    of('body', 'Body', 'text'),
    of('sent_at', 'Sent at', 'date', 'datetime'),
    of('thread', 'Thread', 'ref_ai_chat_thread'),
  ],
};

function build(objectType: PropertyObjectType, spec: Spec): PropertyDefinition {
  const role = spec.role === undefined ? canonicalRole(spec.type) : roleBySlug(spec.role);
  const definition: PropertyDefinition = {
    id: stableId('property', objectType, spec.slug),
    object_type: objectType,
    slug: spec.slug,
    name: spec.name,
    type: spec.type,
    alias: spec.alias ?? null,
    icon: null,
    enabled: true,
    required: false,
    locked: true,
    native: true,
    role_id: role.id,
    team_id: null,
    list_id: null,
    crm_id: null,
    created_at: DEFAULTS_CREATED_AT,
    updated_at: DEFAULTS_CREATED_AT,
  };
  if (spec.options !== undefined) {
    definition.options = spec.options.map(([value, color, given], i): PropertyOption => {
      const slug = given ?? slugify(value, 'option');
      return {
        id: stableId('option', objectType, spec.slug, slug),
        slug,
        value,
        color_scheme: color,
        description: null,
        icon: null,
        option_group: null,
        sort_index: i,
        enabled: true,
        list_id: null,
        crm_id: null,
      };
    });
  }
  return deepFreeze(definition);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The shared default definitions, per object type, in display order. Frozen. */
export const DEFAULT_DEFINITIONS: ReadonlyMap<string, readonly PropertyDefinition[]> = new Map(
  PROPERTY_OBJECT_TYPES.map((type) => [type, SPECS[type].map((spec) => build(type, spec))]),
);

/** The ids of the shared defaults and their options: no team definition may reuse one. */
const DEFAULT_IDS = new Set(
  [...DEFAULT_DEFINITIONS.values()].flatMap((defs) =>
    defs.flatMap((d) => [d.id, ...(d.options ?? []).map((o) => o.id)]),
  ),
);

export function isDefaultId(id: string): boolean {
  return DEFAULT_IDS.has(id);
}
