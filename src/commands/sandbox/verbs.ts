// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as cloneVerb from './clone.ts';
export * as exportVerb from './export.ts';
export * as openVerb from './open.ts';
export * as seedVerb from './seed.ts';
export * as startVerb from './start.ts';
export * as statusVerb from './status.ts';
export * as stopVerb from './stop.ts';
