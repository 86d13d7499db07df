// `ws webhooks disable ID|NAME`: no event is delivered to it until it is enabled again.
import type { Deps } from '../../factory.ts';
import { patchWebhook } from './update.ts';

export interface DisableOptions {
  webhook: string;
}

export async function run(opts: DisableOptions, deps: Deps): Promise<void> {
  await patchWebhook(deps, opts.webhook, { enabled: false });
}
