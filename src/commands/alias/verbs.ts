// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as deleteVerb from './delete.ts';
export * as listVerb from './list.ts';
export * as setVerb from './set.ts';
