// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as batchDeleteVerb from './batch-delete.ts';
export * as batchUpdateVerb from './batch-update.ts';
export * as countVerb from './count.ts';
export * as createVerb from './create.ts';
export * as deleteVerb from './delete.ts';
export * as duplicateVerb from './duplicate.ts';
export * as editVerb from './edit.ts';
export * as exportVerb from './export.ts';
export * as findVerb from './find.ts';
export * as getVerb from './get.ts';
export * as grantVerb from './grant.ts';
export * as listVerb from './list.ts';
export * as queryVerb from './query.ts';
export * as restoreVerb from './restore.ts';
export * as updateVerb from './update.ts';
export * as upsertVerb from './upsert.ts';
