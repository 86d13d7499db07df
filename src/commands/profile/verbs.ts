// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as addVerb from './add.ts';
export * as listVerb from './list.ts';
export * as removeVerb from './remove.ts';
export * as showVerb from './show.ts';
export * as useVerb from './use.ts';
