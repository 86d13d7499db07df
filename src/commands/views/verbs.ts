// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as createVerb from './create.ts';
export * as deleteVerb from './delete.ts';
export * as getVerb from './get.ts';
export * as listVerb from './list.ts';
export * as pinsVerb from './pins.ts';
export * as recordsVerb from './records.ts';
export * as showVerb from './show.ts';
export * as updateVerb from './update.ts';
