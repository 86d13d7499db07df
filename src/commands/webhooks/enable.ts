// `ws webhooks enable ID|NAME`: events are delivered to it again.
import type { Deps } from '../../factory.ts';
import { patchWebhook } from './update.ts';

export interface EnableOptions {
  webhook: string;
}

export async function run(opts: EnableOptions, deps: Deps): Promise<void> {
  await patchWebhook(deps, opts.webhook, { enabled: true });
}
