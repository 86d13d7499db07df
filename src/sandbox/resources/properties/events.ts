// What the properties model announces (see src/sandbox/events.ts), and the one question it
// asks before a change.
//
// Events, after the change, with copies of what changed before and after it:
//   property.created, property.updated, property.deleted   a team definition
//   option.created, option.updated, option.deleted         an option of a select definition
// (a definition's updated_at moves with its options; the option events say which one).
//
// Check, before the change: propertyLeaving, when a definition is about to be deleted or
// moved to another list, so that what names it where it is now (views) can refuse with a
// SandboxError. Nothing has changed when a listener throws.

import { defineCheck, defineEvent } from '../../events.ts';
import type { PropertyDefinition, PropertyOption } from './types.ts';

interface Where {
  readonly teamId: string;
  readonly objectType: string;
}

export type DefinitionEvent = Where &
  (
    | {
        readonly type: 'property.created';
        readonly before: null;
        readonly after: PropertyDefinition;
      }
    | {
        readonly type: 'property.updated';
        readonly before: PropertyDefinition;
        readonly after: PropertyDefinition;
      }
    | {
        readonly type: 'property.deleted';
        readonly before: PropertyDefinition;
        readonly after: null;
      }
  );

export type OptionEvent = Where & {
  /** The definition the option belongs to, after the change. */
  readonly property: PropertyDefinition;
} & (
    | { readonly type: 'option.created'; readonly before: null; readonly after: PropertyOption }
    | {
        readonly type: 'option.updated';
        readonly before: PropertyOption;
        readonly after: PropertyOption;
      }
    | { readonly type: 'option.deleted'; readonly before: PropertyOption; readonly after: null }
  );

/** Definitions and options in events are copies: later changes do not reach them. */
export type PropertyEvent = DefinitionEvent | OptionEvent;

export type PropertyEventType = PropertyEvent['type'];

export const propertyEvents = defineEvent<PropertyEvent>('property');

/** A definition about to leave where it is seen now. */
export interface PropertyLeaving extends Where {
  readonly definition: Readonly<PropertyDefinition>;
  /**
   * Where it goes: undefined when it is deleted; a list id, or null (workspace-global: seen
   * on every list), when it moves.
   */
  readonly to: string | null | undefined;
}

export const propertyLeaving = defineCheck<PropertyLeaving>('property.leaving');
