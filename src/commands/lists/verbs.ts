// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as createVerb from './create.ts';
export * as getVerb from './get.ts';
export * as listVerb from './list.ts';
