// The verbs of this noun, loaded together when one of them runs (see src/command.ts).
export * as checkSignatureVerb from './check-signature.ts';
export * as createVerb from './create.ts';
export * as deleteVerb from './delete.ts';
export * as disableVerb from './disable.ts';
export * as doctorVerb from './doctor.ts';
export * as enableVerb from './enable.ts';
export * as getVerb from './get.ts';
export * as listVerb from './list.ts';
export * as listenVerb from './listen.ts';
export * as pingVerb from './ping.ts';
export * as signVerb from './sign.ts';
export * as updateVerb from './update.ts';
export * as verifyVerb from './verify.ts';
