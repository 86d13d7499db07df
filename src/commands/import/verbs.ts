// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as importVerb from './import.ts';
export * as jobsVerb from './jobs.ts';
export * as statusVerb from './status.ts';
