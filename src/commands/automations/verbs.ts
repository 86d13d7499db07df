// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as applyVerb from './apply.ts';
export * as createVerb from './create.ts';
export * as deleteVerb from './delete.ts';
export * as diffVerb from './diff.ts';
export * as enableVerb from './enable.ts';
export * as exportVerb from './export.ts';
export * as getVerb from './get.ts';
export * as listVerb from './list.ts';
export * as runsVerb from './runs.ts';
export * as testVerb from './test.ts';
export * as updateVerb from './update.ts';
export * as validateVerb from './validate.ts';
