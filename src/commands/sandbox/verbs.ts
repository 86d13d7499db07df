// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as openVerb from './open.ts';
export * as startVerb from './start.ts';
export * as statusVerb from './status.ts';
export * as stopVerb from './stop.ts';
