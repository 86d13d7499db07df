// What the alias verbs share: the words that are ws's own commands (never an alias), and
// the columns an alias is shown in.
import type { Column } from '../../output/format.ts';
import { NOUNS } from '../../root.ts';

/** The first words ws takes as commands: an alias of one of these would never run. */
export function builtinWords(): string[] {
  return [...NOUNS.flatMap((n) => n.names), 'help'];
}

export interface AliasRow {
  name: string;
  expansion: string;
  /** Shadowed by a command of ws (a later ws added one of that name): never expanded. */
  shadowed: boolean;
}

export const aliasColumns: Column<AliasRow>[] = [
  { key: 'name' },
  { key: 'expansion', text: (v, r) => `${v}${r.shadowed ? '  (never used: a ws command)' : ''}` },
  { key: 'shadowed', default: false },
];
