// What each positional argument of a noun's verbs is, said once for every verb that takes
// it: help lists it under "Arguments", and leaving it out says what was missing
// (src/help.ts). The object types come from the lists generated from the contract.
import type { Command } from 'commander';
import {
  AUTOMATION_TYPES,
  PROPERTY_TYPES,
  RECORD_TYPES,
  type TypeFamily,
  VIEW_TYPES,
} from '../../api/object-types.ts';
import { orList } from '../../help.ts';

const TYPES: Partial<Record<TypeFamily, readonly string[]>> = {
  record: RECORD_TYPES,
  property: PROPERTY_TYPES,
  view: VIEW_TYPES,
  automation: AUTOMATION_TYPES,
};

/** Arguments that mean the same in every noun. */
const COMMON: Readonly<Record<string, string>> = {
  id: 'a record id (a UUID)',
  ids: 'record ids (UUIDs)',
  slug: 'a property slug',
  property: 'a property, by slug or id',
  option: 'an option, by slug or id',
  view: 'a view, by id or by name',
};

/**
 * Describe the arguments of every verb under `noun` (and below): `type` as an object type of
 * `family`, the others from COMMON, then `own` (the noun's own meanings win).
 */
export function describeArguments(
  noun: Command,
  family: TypeFamily | undefined,
  own: Readonly<Record<string, string>> = {},
): void {
  const types = family ? TYPES[family] : undefined;
  const words: Record<string, string> = { ...COMMON, ...own };
  if (types) words.type = `an object type: ${orList(types)} (singular or plural)`;
  const walk = (cmd: Command) => {
    for (const arg of cmd.registeredArguments) {
      const word = words[arg.name()];
      if (word !== undefined && !arg.description) arg.description = word;
    }
    for (const sub of cmd.commands) walk(sub);
  };
  walk(noun);
}
