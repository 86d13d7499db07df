// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as completionVerb from './completion.ts';
